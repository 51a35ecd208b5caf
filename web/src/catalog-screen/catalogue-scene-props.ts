/** Props every catalogue scene receives from the router: its title from `CATALOGUE_ROUTES`. */
export interface CatalogueSceneProps {
  title: string;
}
