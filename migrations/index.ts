/**
 * Every migration, in order. Listed here (not discovered by glob) so they run the same under tsx,
 * Vitest and any bundler. Add a new one at the end.
 */
import { Migration20261121000000 } from './Migration20261121000000.js';
import { Migration20261121010000 } from './Migration20261121010000.js';
import { Migration20261122000000 } from './Migration20261122000000.js';
import { Migration20261123000000 } from './Migration20261123000000.js';
import { Migration20261124000000 } from './Migration20261124000000.js';
import { Migration20261125000000 } from './Migration20261125000000.js';
import { Migration20261126000000 } from './Migration20261126000000.js';
import { Migration20261127000000 } from './Migration20261127000000.js';
import { Migration20261128000000 } from './Migration20261128000000.js';
import { Migration20261129000000 } from './Migration20261129000000.js';
import { Migration20261130000000 } from './Migration20261130000000.js';
import { Migration20261201000000 } from './Migration20261201000000.js';
import { Migration20261201010000 } from './Migration20261201010000.js';
import { Migration20261202000000 } from './Migration20261202000000.js';
import { Migration20261202020000 } from './Migration20261202020000.js';
import { Migration20261203040000 } from './Migration20261203040000.js';
import { Migration20261203030000 } from './Migration20261203030000.js';
import { Migration20261203053700 } from './Migration20261203053700.js';
import { Migration20261203053800 } from './Migration20261203053800.js';
import { Migration20261203101500 } from './Migration20261203101500.js';
import { Migration20261204090000 } from './Migration20261204090000.js';
import { Migration20261204100000 } from './Migration20261204100000.js';

export const migrationsList = [
  { name: 'Migration20261121000000', class: Migration20261121000000 },
  { name: 'Migration20261121010000', class: Migration20261121010000 },
  { name: 'Migration20261122000000', class: Migration20261122000000 },
  { name: 'Migration20261123000000', class: Migration20261123000000 },
  { name: 'Migration20261124000000', class: Migration20261124000000 },
  { name: 'Migration20261125000000', class: Migration20261125000000 },
  { name: 'Migration20261126000000', class: Migration20261126000000 },
  { name: 'Migration20261127000000', class: Migration20261127000000 },
  { name: 'Migration20261128000000', class: Migration20261128000000 },
  { name: 'Migration20261129000000', class: Migration20261129000000 },
  { name: 'Migration20261130000000', class: Migration20261130000000 },
  { name: 'Migration20261201000000', class: Migration20261201000000 },
  { name: 'Migration20261201010000', class: Migration20261201010000 },
  { name: 'Migration20261202000000', class: Migration20261202000000 },
  { name: 'Migration20261202020000', class: Migration20261202020000 },
  { name: 'Migration20261203040000', class: Migration20261203040000 },
  { name: 'Migration20261203030000', class: Migration20261203030000 },
  { name: 'Migration20261203053700', class: Migration20261203053700 },
  { name: 'Migration20261203053800', class: Migration20261203053800 },
  { name: 'Migration20261203101500', class: Migration20261203101500 },
  { name: 'Migration20261204090000', class: Migration20261204090000 },
  { name: 'Migration20261204100000', class: Migration20261204100000 },
];
