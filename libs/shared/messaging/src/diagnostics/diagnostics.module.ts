import { Module } from '@nestjs/common';
import { ProbeListener } from './probe.listener';

/** Hosts the `probe` consumer group (only in processes that list 'probe' among their consumers). */
@Module({ providers: [ProbeListener] })
export class DiagnosticsModule {}
