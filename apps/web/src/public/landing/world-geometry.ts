import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from 'geojson';

function distinctPoints(ring: Position[]): number {
  return new Set(ring.map(([lng, lat]) => `${lng},${lat}`)).size;
}

/** A polygon whose outer ring has fewer than 3 distinct points has no area (and makes H3 polyfill throw). */
function isDegenerate(polygon: Position[][]): boolean {
  return !polygon[0] || distinctPoints(polygon[0]) < 3;
}

/**
 * Drops degenerate polygons from country features (world-atlas 110m has a zero-area sliver in one
 * MultiPolygon) and features left with none.
 */
export function cleanCountryFeatures(collection: FeatureCollection): Feature<Polygon | MultiPolygon>[] {
  const out: Feature<Polygon | MultiPolygon>[] = [];
  for (const f of collection.features) {
    const g = f.geometry;
    if (!g) continue;
    if (g.type === 'Polygon') {
      if (!isDegenerate(g.coordinates)) out.push(f as Feature<Polygon>);
    } else if (g.type === 'MultiPolygon') {
      const polys = g.coordinates.filter((p) => !isDegenerate(p));
      if (polys.length) out.push({ ...f, geometry: { type: 'MultiPolygon', coordinates: polys } } as Feature<MultiPolygon>);
    }
  }
  return out;
}
