import { Module } from '@nestjs/common';
import { ProbeRepository } from './probe.repository';
import { ProbeListener } from './probe.listener';
import { ProbeRpcHandlers } from './probe.rpc';

/** Hosts the `probe` consumer group (only in processes that list 'probe' among their consumers). */
@Module({ providers: [ProbeRepository, ProbeListener, ProbeRpcHandlers] })
export class DiagnosticsModule {}
