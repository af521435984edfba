/**
 * THE list of the HTTP listener's route modules: each registers its routes on the app, reading the broker through
 * the context. A route answering before start-up is complete says so with `config: { beforeReady: true }`.
 * Add a module with one line here.
 */
import type { FastifyInstance } from 'fastify';
import type { HttpContext } from './context.js';
import { healthRoutes } from './health.js';
import { metricsRoutes } from './metrics/metrics-route.js';
import { registerSchemaRegistryRoutes, SCHEMA_REGISTRY_PREFIX } from '../schema-registry/rest/registry-routes.js';
import { consoleRoutes } from './console/console-routes.js';
import { faultsRoutes } from './faults-routes.js';

export type RouteModule = (app: FastifyInstance, ctx: HttpContext) => void;

export const routeModules: readonly RouteModule[] = [
  healthRoutes,
  metricsRoutes,
  (app, ctx) => registerSchemaRegistryRoutes(app, () => ctx.broker.schemaRegistry, SCHEMA_REGISTRY_PREFIX),
  consoleRoutes,
  faultsRoutes,
];
