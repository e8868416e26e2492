import { Module } from '@nestjs/common';
import { ProbeRecords } from './probe-records';
import { ProbeListener } from './probe.listener';
import { ProbeRpcHandlers } from './probe.rpc';

/** Hosts the `probe` consumer group (only in processes that list 'probe' among their consumers). */
@Module({ providers: [ProbeRecords, ProbeListener, ProbeRpcHandlers] })
export class DiagnosticsModule {}
