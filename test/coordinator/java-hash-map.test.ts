// JavaHashMap iterates as java.util.HashMap does: the expected orders were printed by Java 17's HashMap for the
// same keys put in the same order (one key removed), with the same initial capacities; hash codes by Java too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JavaHashMap, javaStringHash, javaStringMapHash } from '../../src/coordinator/runtime/java-hash-map.js';

const KEYS = ['producer_byte_rate', 'consumer_byte_rate', 'request_percentage', 'controller_mutation_rate', 'connection_creation_rate',
  'user', 'client-id', 'ip', ...'abcdefghijklmnopqrs'];

/** [initial capacity (undefined: new HashMap<>()), keys put, Java's iteration order after removing consumer_byte_rate]. */
const JAVA_ORDERS: [number | undefined, number, string][] = [
  [0, 4, 'producer_byte_rate,controller_mutation_rate,request_percentage'],
  [1, 3, 'producer_byte_rate,request_percentage'],
  [3, 7, 'connection_creation_rate,request_percentage,producer_byte_rate,client-id,user,controller_mutation_rate'],
  [2, 13, 'a,b,c,d,e,request_percentage,ip,producer_byte_rate,controller_mutation_rate,connection_creation_rate,client-id,user'],
  [undefined, 27, 'controller_mutation_rate,connection_creation_rate,client-id,a,b,c,d,e,f,request_percentage,ip,g,h,i,j,producer_byte_rate,k,l,m,n,o,p,q,r,s,user'],
  [5, 27, 'controller_mutation_rate,connection_creation_rate,client-id,a,b,c,d,e,f,request_percentage,ip,g,h,i,j,producer_byte_rate,k,l,m,n,o,p,q,r,s,user'],
];

test('JavaHashMap iterates in java.util.HashMap\'s order, whatever the initial capacity and the resizes', () => {
  for (const [capacity, count, order] of JAVA_ORDERS) {
    const map = new JavaHashMap<string, number>((k) => k, javaStringHash, capacity);
    KEYS.slice(0, count).forEach((key, i) => map.set(key, i));
    map.delete('consumer_byte_rate');
    assert.equal(map.keys().join(','), order, `capacity ${capacity}, ${count} keys`);
  }
});

test('Java hash codes: String.hashCode and AbstractMap.hashCode, null as 0', () => {
  assert.equal(javaStringHash('producer_byte_rate'), -832502454);
  assert.equal(javaStringHash(null), 0);
  assert.equal(javaStringMapHash([['user', 'alice'], ['client-id', null]]), (javaStringHash('user') ^ javaStringHash('alice')) + javaStringHash('client-id'));
});
