/**
 * Runs the Kafka broker double as its own process, with every topic of the event registry (and its
 * dead-letter topic) created, for multi-process runs with MESSAGING_TRANSPORT=kafka on a machine without
 * Kafka. Prints `KAFKA_DOUBLE_READY <host:port>` on stdout, then `KAFKA_DOUBLE_GROUP {id, generation,
 * members}` whenever a consumer group settles; stops on SIGTERM/SIGINT (exit 2 if a request was wrong).
 *   node dist/out/libs/shared/messaging/src/kafka/testing/kafka-double.main.js
 */
import { kafkaTopicPlan } from '../kafka-topics';
import { KafkaWireDouble } from './kafka-wire.double';

async function main(): Promise<void> {
  const topics: Record<string, number> = {};
  for (const t of kafkaTopicPlan()) {
    topics[t.topic] = t.partitions;
    topics[t.deadLetterTopic] = Math.min(t.partitions, 3);
  }
  const double = new KafkaWireDouble(topics);
  const address = await double.start();
  double.events.on('group-stable', (id: string, g: { generation: number; members: string[] }) => {
    process.stdout.write(`KAFKA_DOUBLE_GROUP ${JSON.stringify({ id, generation: g.generation, members: g.members.length })}\n`);
  });
  process.stdout.write(`KAFKA_DOUBLE_READY ${address}\n`);
  const stop = () => {
    if (double.problems.length > 0) process.stderr.write(`kafka double problems:\n${double.problems.join('\n')}\n`);
    void double.stop().then(() => process.exit(double.problems.length > 0 ? 2 : 0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
