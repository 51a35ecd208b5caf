import {
  createTable,
  functionalUpdate,
  type Table,
  type TableOptions,
  type TableOptionsResolved,
  type TableState,
} from '@tanstack/react-table';

/**
 * A TanStack table without React, holding its own state the way `useReactTable` does. The unit tests
 * (Node, no DOM) drive the same options as the {@link DataTable} component through it.
 */
export function createHeadlessTable<T>(
  options: Omit<TableOptions<T>, 'state' | 'onStateChange' | 'renderFallbackValue'>,
): Table<T> {
  const resolved: TableOptionsResolved<T> = {
    ...options,
    state: {},
    onStateChange: () => undefined,
    renderFallbackValue: null,
  };
  const table = createTable(resolved);
  let state: TableState = { ...table.initialState };
  const sync = () =>
    table.setOptions((previous) => ({
      ...previous,
      state,
      onStateChange: (updater) => {
        state = functionalUpdate(updater, state);
        sync();
      },
    }));
  sync();
  return table;
}
