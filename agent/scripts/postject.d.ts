/** postject's JavaScript API (it ships no types): injects `data` as resource `name` into `file`. */
declare module 'postject' {
  export function inject(
    file: string,
    name: string,
    data: Buffer,
    options?: { sentinelFuse?: string; machoSegmentName?: string; overwrite?: boolean },
  ): Promise<void>;
}
