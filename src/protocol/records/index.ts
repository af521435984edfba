// Record batch v2: the header view and patches (batch.ts), the full record codec (record.ts), transaction markers
// (control.ts) and Kafka's produce-side checks (validate.ts).
export * from './batch.js';
export * from './record.js';
export * from './control.js';
export * from './validate.js';
