import { useId } from 'react';
import { Flex, HStack, Input, NativeSelect, Text, chakra } from '@chakra-ui/react';
import { ExportButtons, type ExportButtonsProps } from './export-buttons';
import { PAGE_SIZE_OPTIONS } from './table-model';
import { TABLE_TEXTS, lengthMenuParts, pageSizeLabel } from './table-texts';

/** Props of {@link DataTableToolbar}. */
export interface DataTableToolbarProps extends ExportButtonsProps {
  /** The page-size option shown (-1 for 'Todos'). */
  pageSize: number;
  /** The page sizes offered (default 5, 10, 25, 50, Todos; a server-paged table offers its own). */
  pageSizes?: readonly number[];
  onPageSizeChange: (option: number) => void;
  search: string;
  onSearchChange: (search: string) => void;
}

/** Above the table: 'Mostrar _MENU_ registros', the export buttons and 'Buscar:'. */
export function DataTableToolbar({
  pageSize,
  pageSizes = PAGE_SIZE_OPTIONS,
  onPageSizeChange,
  search,
  onSearchChange,
  ...exportProps
}: DataTableToolbarProps) {
  const searchId = useId();
  const [before, after] = lengthMenuParts();
  return (
    <Flex justify="space-between" align="center" gap="3" wrap="wrap">
      <HStack gap="2">
        <Text as="span">{before}</Text>
        <NativeSelect.Root size="sm" width="auto">
          <NativeSelect.Field
            aria-label={`${before} ${after}`}
            value={String(pageSize)}
            onChange={(event) => onPageSizeChange(Number(event.currentTarget.value))}
          >
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {pageSizeLabel(size)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <Text as="span">{after}</Text>
      </HStack>
      <ExportButtons {...exportProps} />
      <HStack gap="2">
        <chakra.label htmlFor={searchId}>{TABLE_TEXTS.search}</chakra.label>
        <Input
          id={searchId}
          type="search"
          size="sm"
          width="56"
          autoComplete="off"
          value={search}
          onChange={(event) => onSearchChange(event.currentTarget.value)}
        />
      </HStack>
    </Flex>
  );
}
