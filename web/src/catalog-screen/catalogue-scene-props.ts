/** Props every catalogue scene receives from the router: its title from the route table (`app/route-table.ts`). */
export interface CatalogueSceneProps {
  title: string;
}
