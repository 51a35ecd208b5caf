export * from './constants.js';
export * from './messages.js';
export * from './events.js';
export * from './schemas/common.js';
export * from './schemas/api.js';
export * from './schemas/auth.js';
export * from './schemas/board.js';
export * from './schemas/agent.js';
