import { Button, ButtonGroup, Flex, Text } from '@chakra-ui/react';
import { pageButtons } from './table-model';
import { TABLE_TEXTS } from './table-texts';

/** Props of {@link DataTablePagination}. */
export interface DataTablePaginationProps {
  /** 'Mostrando del … al … de … registros'. */
  info: string;
  pageIndex: number;
  pageCount: number;
  canPrevious: boolean;
  canNext: boolean;
  onPage: (pageIndex: number) => void;
}

/**
 * Under the table: the 'Mostrando…' line and 'Anterior', the page numbers, 'Siguiente'; on a narrow
 * screen the buttons wrap instead of widening the page.
 */
export function DataTablePagination({
  info,
  pageIndex,
  pageCount,
  canPrevious,
  canNext,
  onPage,
}: DataTablePaginationProps) {
  return (
    <Flex justify="space-between" align="center" gap="3" wrap="wrap">
      <Text fontSize="sm" color="fg.muted" role="status" aria-live="polite" data-testid="data-table-info">
        {info}
      </Text>
      {/* Attached from 768 px up; below, the buttons part and wrap onto more lines. */}
      <ButtonGroup
        as="nav"
        aria-label="Paginación"
        size="sm"
        variant="outline"
        attached={{ base: false, md: true }}
        gap={{ base: '1', md: '0' }}
        wrap="wrap"
      >
        <Button disabled={!canPrevious} onClick={() => onPage(pageIndex - 1)}>
          {TABLE_TEXTS.previous}
        </Button>
        {pageButtons(pageIndex, pageCount).map((page, index) =>
          page === 'gap' ? (
            <Button key={`gap-${index}`} disabled aria-hidden="true" tabIndex={-1}>
              …
            </Button>
          ) : (
            <Button
              key={page}
              aria-label={`Página ${page + 1}`}
              aria-current={page === pageIndex ? 'page' : undefined}
              variant={page === pageIndex ? 'solid' : 'outline'}
              colorPalette={page === pageIndex ? 'blue' : undefined}
              onClick={() => onPage(page)}
            >
              {page + 1}
            </Button>
          ),
        )}
        <Button disabled={!canNext} onClick={() => onPage(pageIndex + 1)}>
          {TABLE_TEXTS.next}
        </Button>
      </ButtonGroup>
    </Flex>
  );
}
