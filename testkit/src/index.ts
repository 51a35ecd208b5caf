/**
 * `@concurso/testkit`: test data and test servers for the server tests, the browser journeys and the
 * measurements (README.md). This entry loads the server's app (in-process test servers); tools that
 * only spawn processes import the parts they need instead (`@concurso/testkit/deployment`, …).
 */
export * from './environment.js';
export * from './waiting.js';
export * from './test-server.js';
export * from './factories.js';
export * from './sockets.js';
export * from './http-api.js';
export * from './deployment.js';
export * from './server-process.js';
export * from './server-build.js';
export * from './processes.js';
export * from './redis-instance.js';
export * from './mariadb-instance.js';
export * from './browser.js';
export * from './web-test-bed.js';
export * from './windows-1252.js';
export * from './xvfb.js';
export * from './lab-network.js';
