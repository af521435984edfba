/**
 * Replica assignment of a new topic, as Kafka 4.3.1's StripedReplicaPlacer does it: the racks (brokers without a
 * rack form one, named by no rack, sorted first) are striped, each partition's first replica taken from the next
 * rack in turn (an unfenced broker) and its others from the racks after it, each rack's brokers taken in rotation;
 * once as many partitions as unfenced brokers were placed, racks and brokers are shuffled to vary the next round.
 * The random source is injected: with Kafka's own (java.util.Random over its MockRandom, in the test) the same
 * brokers give Kafka's exact assignments; gregor's draws from Math.random.
 */
import { KafkaError } from '../protocol/kafka-error.js';
import { javaHashOrder, javaStringHash } from '../coordinator/runtime/java-hash-map.js';

export interface UsableBroker {
  readonly id: number;
  readonly rack: string | null;
  readonly fenced: boolean;
}

/** An integer in [0, bound), as Random.nextInt(bound). */
export type RandomInt = (bound: number) => number;

export const mathRandomInt: RandomInt = (bound) => Math.floor(Math.random() * bound);

export class InvalidReplicationFactor extends KafkaError {
  constructor(message: string) {
    super('INVALID_REPLICATION_FACTOR', message);
  }
}

/** Collections.shuffle: from the last element down, each swapped with a random one at or before it. */
function shuffle<T>(items: T[], random: RandomInt): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}

class BrokerList {
  readonly brokers: number[] = [];
  private index = 0;
  private offset = 0;
  private epoch = 0;

  initialize(random: RandomInt): void {
    if (this.brokers.length === 0) return;
    this.brokers.sort((a, b) => a - b);
    this.offset = random(this.brokers.length);
  }

  next(epoch: number): number {
    if (this.brokers.length === 0) return -1;
    if (this.epoch !== epoch) {
      this.epoch = epoch;
      this.index = 0;
      this.offset = (this.offset + 1) % this.brokers.length;
    }
    if (this.index >= this.brokers.length) return -1;
    return this.brokers[(this.index++ + this.offset) % this.brokers.length]!;
  }
}

class Rack {
  readonly fenced = new BrokerList();
  readonly unfenced = new BrokerList();
  next(epoch: number): number {
    const result = this.unfenced.next(epoch);
    return result >= 0 ? result : this.fenced.next(epoch);
  }
}

class RackList {
  private readonly racks = new Map<string | null, Rack>();
  private readonly rackNames: (string | null)[] = [];
  /** Kafka's racks are a HashMap<Optional<String>, Rack>: initialized and shuffled in its iteration order. */
  private readonly racksInJavaOrder: Rack[];
  readonly total: number;
  readonly unfenced: number;
  private epoch = 0;
  private offset: number;

  constructor(private readonly random: RandomInt, brokers: readonly UsableBroker[]) {
    let unfenced = 0;
    for (const broker of brokers) {
      let rack = this.racks.get(broker.rack);
      if (rack === undefined) {
        this.rackNames.push(broker.rack);
        rack = new Rack();
        this.racks.set(broker.rack, rack);
      }
      if (broker.fenced) rack.fenced.brokers.push(broker.id);
      else {
        unfenced++;
        rack.unfenced.brokers.push(broker.id);
      }
    }
    this.racksInJavaOrder = javaHashOrder([...this.racks.keys()], javaStringHash).map((name) => this.racks.get(name)!);
    for (const rack of this.racksInJavaOrder) {
      rack.fenced.initialize(random);
      rack.unfenced.initialize(random);
    }
    // OptionalStringComparator: no rack first, then by name.
    this.rackNames.sort((a, b) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1));
    this.total = brokers.length;
    this.unfenced = unfenced;
    this.offset = this.rackNames.length === 0 ? 0 : random(this.rackNames.length);
  }

  place(replicationFactor: number): number[] {
    if (this.epoch === this.unfenced && this.unfenced > 1) {
      shuffle(this.rackNames, this.random);
      for (const rack of this.racksInJavaOrder) {
        shuffle(rack.fenced.brokers, this.random);
        shuffle(rack.unfenced.brokers, this.random);
      }
      this.epoch = 0;
    }
    if (this.offset === this.rackNames.length) this.offset = 0;
    const brokers: number[] = [];
    let firstRackIndex = this.offset;
    for (;;) {
      const result = this.racks.get(this.rackNames[firstRackIndex]!)!.unfenced.next(this.epoch);
      if (result >= 0) {
        brokers.push(result);
        break;
      }
      if (++firstRackIndex === this.rackNames.length) firstRackIndex = 0;
    }
    let rackIndex = this.offset;
    for (let replica = 1; replica < replicationFactor; replica++) {
      let result = -1;
      do {
        if (rackIndex === firstRackIndex) firstRackIndex = -1;
        else result = this.racks.get(this.rackNames[rackIndex]!)!.next(this.epoch);
        if (++rackIndex === this.rackNames.length) rackIndex = 0;
      } while (result < 0);
      brokers.push(result);
    }
    this.epoch++;
    this.offset++;
    return brokers;
  }
}

/** Each partition's replicas, the first its preferred leader; Kafka's InvalidReplicationFactorException messages. */
export function placeReplicas(partitions: number, replicationFactor: number, brokers: readonly UsableBroker[], random: RandomInt = mathRandomInt): number[][] {
  const racks = new RackList(random, brokers);
  if (replicationFactor <= 0) {
    throw new InvalidReplicationFactor(`Invalid replication factor ${replicationFactor}: the replication factor must be positive.`);
  }
  if (racks.unfenced === 0) throw new InvalidReplicationFactor('All brokers are currently fenced, or have all their log directories cordoned.');
  if (replicationFactor > racks.total) {
    throw new InvalidReplicationFactor(`The target replication factor of ${replicationFactor} cannot be reached because only ${racks.total} broker(s) are registered or some brokers have all their log directories cordoned.`);
  }
  const placements: number[][] = [];
  for (let p = 0; p < partitions; p++) placements.push(racks.place(replicationFactor));
  return placements;
}
