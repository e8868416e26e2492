import { ServerKafka } from '@nestjs/microservices';
import { kafkaConsumerOptions, type KafkaTransportOptions } from './kafka-options.factory';
import { withDeadLetter, type DeadLetterOptions, type KafkaEventHandler } from './kafka-dead-letter';
import { consumerGroupId } from './kafka-topics';
import type { KafkaSettings } from './kafka-settings';

type AddHandler = ServerKafka['addHandler'];

/**
 * ServerKafka for one consumer group whose event handlers retry and then dead-letter (see
 * kafka-dead-letter.ts). Drop-in for `new ServerKafka(options)` in the transport factory.
 */
export class GaiaKafkaServer extends ServerKafka {
  constructor(
    options: KafkaTransportOptions,
    private readonly deadLetter: DeadLetterOptions,
  ) {
    super(options);
  }

  static forConsumer(consumer: string, settings: KafkaSettings, deadLetter: Partial<DeadLetterOptions> = {}): GaiaKafkaServer {
    return new GaiaKafkaServer(kafkaConsumerOptions(consumer, settings), { consumerGroup: consumerGroupId(consumer), ...deadLetter });
  }

  override addHandler(...args: Parameters<AddHandler>): ReturnType<AddHandler> {
    const [pattern, callback, isEventHandler, extras] = args;
    if (!isEventHandler) return super.addHandler(pattern, callback, isEventHandler, extras);
    const wrapped = withDeadLetter(callback as unknown as KafkaEventHandler, this.deadLetter);
    return super.addHandler(pattern, wrapped as unknown as typeof callback, isEventHandler, extras);
  }
}
