import { useEffect, useMemo, useRef, useState } from 'react';
import Globe, { type GlobeMethods } from 'react-globe.gl';
import { MeshPhongMaterial } from 'three';
import { feature } from 'topojson-client';
import type { Topology, GeometryCollection } from 'topojson-specification';
import type { FeatureCollection } from 'geojson';
import { cleanCountryFeatures } from './world-geometry';
import countries110m from 'world-atlas/countries-110m.json';
import { GLOBE } from '../../config';
import type { LanguagePoint } from './languages';

export interface GlobePoint extends LanguagePoint {
  name: string;
  region: string;
  speakers: string;
  description: string;
}

interface Props {
  points: GlobePoint[];
  labels: { region: string; speakers: string };
  onHover(point: GlobePoint | null): void;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The 3D globe (lazy chunk): country hexagons from the shipped world-atlas, one point per language. */
export default function LanguageGlobe({ points, labels, onHover }: Props) {
  const ref = useRef<GlobeMethods | undefined>(undefined);
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(800);
  const [height, setHeight] = useState<number>(GLOBE.height);

  const land = useMemo(() => {
    const topo = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
    return cleanCountryFeatures(feature(topo, topo.objects.countries) as unknown as FeatureCollection);
  }, []);
  const material = useMemo(() => new MeshPhongMaterial({ color: '#0b3b4a', emissive: '#06202a', shininess: 8 }), []);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => {
      setWidth(el.clientWidth);
      setHeight(window.matchMedia('(min-width: 1280px)').matches ? GLOBE.heightLarge : GLOBE.height);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    // Stop rendering while the globe is scrolled out of view.
    const io = new IntersectionObserver(([entry]) => {
      const g = ref.current;
      if (!g) return;
      if (entry.isIntersecting) g.resumeAnimation();
      else g.pauseAnimation();
    });
    io.observe(el);
    return () => {
      ro.disconnect();
      io.disconnect();
    };
  }, []);

  const onReady = () => {
    const g = ref.current;
    if (!g) return;
    g.pointOfView(GLOBE.pov, 0);
    const controls = g.controls();
    controls.autoRotate = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    controls.autoRotateSpeed = GLOBE.autoRotateSpeed;
    controls.enableZoom = false;
  };

  return (
    <div ref={box} className="globe-canvas" style={{ height }}>
      <Globe
        ref={ref}
        width={width}
        height={height}
        backgroundColor="rgba(0,0,0,0)"
        globeMaterial={material}
        showAtmosphere
        atmosphereColor="#5eead4"
        atmosphereAltitude={0.18}
        hexPolygonsData={land}
        hexPolygonResolution={3}
        hexPolygonMargin={0.35}
        hexPolygonColor={() => 'rgba(148, 226, 213, 0.55)'}
        pointsData={points}
        pointLat="lat"
        pointLng="lng"
        pointColor="color"
        pointAltitude={(p: object) => 0.02 + (p as GlobePoint).size * 0.12}
        pointRadius={GLOBE.pointRadius}
        pointLabel={(p: object) => {
          const d = p as GlobePoint;
          return `<div class="globe-tooltip"><strong>${escapeHtml(d.name)}</strong><br/>${escapeHtml(labels.region)}: ${escapeHtml(d.region)}<br/>${escapeHtml(labels.speakers)}: ${escapeHtml(d.speakers)}<br/><span>${escapeHtml(d.description)}</span></div>`;
        }}
        labelsData={points}
        labelLat="lat"
        labelLng="lng"
        labelText="name"
        labelSize={GLOBE.labelSize}
        labelDotRadius={0}
        labelColor={() => 'rgba(236, 254, 255, 0.9)'}
        labelAltitude={0.01}
        onPointHover={(p: object | null) => onHover(p as GlobePoint | null)}
        onGlobeReady={onReady}
      />
    </div>
  );
}
