/**
 * The messages module's public face: messages to teams and their receipts. app.ts
 * registers what it exports; another module imports it from here only (lint: boundaries/dependencies).
 * The rest of the folder is private to the module.
 */
export { Message } from './message.entity.js';
export { MessageReceipt } from './message-receipt.entity.js';
export { default as messagesRoutes } from './messages.routes.js';
