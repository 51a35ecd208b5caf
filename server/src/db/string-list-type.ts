import { Type } from '@mikro-orm/core';

/**
 * A list of strings kept in a `json` column (a contest's allowed sites). MariaDB's `json` is
 * a `longtext`, so the driver hands back the text, which MikroORM's own `JsonType` leaves unparsed on
 * the MySQL driver: this type writes the JSON text and always reads back an array (anything else,
 * e.g. a hand-edited row, reads as an empty list).
 */
export class StringListType extends Type<string[], string> {
  override convertToDatabaseValue(value: string[] | string): string {
    return typeof value === 'string' ? value : JSON.stringify(value);
  }

  override convertToJSValue(value: string | string[] | null): string[] {
    if (Array.isArray(value)) return value;
    try {
      const parsed: unknown = JSON.parse(value ?? '[]');
      return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
    } catch {
      return [];
    }
  }

  override compareAsType(): string {
    return 'string';
  }

  override getColumnType(): string {
    return 'json';
  }
}
