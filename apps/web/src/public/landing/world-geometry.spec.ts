import type { FeatureCollection } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';
import { describe, expect, it } from 'vitest';
import { cleanCountryFeatures } from './world-geometry';

describe('cleanCountryFeatures', () => {
  it('drops zero-area polygons and keeps the others', () => {
    const fc: FeatureCollection = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { name: 'ok' },
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 0],
                [1, 1],
                [0, 0],
              ],
            ],
          },
        },
        {
          type: 'Feature',
          properties: { name: 'dot' },
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [2, 2],
                [2, 2],
                [2, 2],
                [2, 2],
              ],
            ],
          },
        },
        {
          type: 'Feature',
          properties: { name: 'multi' },
          geometry: {
            type: 'MultiPolygon',
            coordinates: [
              [
                [
                  [5, 5],
                  [5, 5],
                  [5, 5],
                  [5, 5],
                ],
              ],
              [
                [
                  [0, 0],
                  [2, 0],
                  [2, 2],
                  [0, 0],
                ],
              ],
            ],
          },
        },
      ],
    };
    const cleaned = cleanCountryFeatures(fc);
    expect(cleaned.map((f) => f.properties?.name)).toEqual(['ok', 'multi']);
    expect(cleaned[1].geometry.coordinates).toHaveLength(1);
  });

  it('keeps every country of the shipped world-atlas 110m map', () => {
    const topo = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
    const fc = feature(topo, topo.objects.countries) as unknown as FeatureCollection;
    expect(cleanCountryFeatures(fc)).toHaveLength(fc.features.length);
  });
});
