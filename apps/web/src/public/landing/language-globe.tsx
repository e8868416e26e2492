import { useLayoutEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import Globe, { type GlobeMethods } from 'react-globe.gl';
import { MeshPhongMaterial } from 'three';
import { feature } from 'topojson-client';
import type { Topology, GeometryCollection } from 'topojson-specification';
import type { FeatureCollection } from 'geojson';
import { cleanCountryFeatures } from './world-geometry';
import countries110m from 'world-atlas/countries-110m.json';
import { GLOBE } from '../../config';
import { nearestPoint, type LanguagePoint } from './languages';

export interface GlobePoint extends LanguagePoint {
  name: string;
  region: string;
  speakers: string;
  description: string;
}

interface Props {
  points: GlobePoint[];
  labels: { region: string; speakers: string };
  /** A language was pointed at: hovered with a mouse, or tapped (on the point or near it) on a touch screen. */
  onSelect(point: GlobePoint): void;
}

/** Below this width (phones) the globe is as tall as it is wide, plus a little room for the atmosphere. */
const NARROW_WIDTH = 640;
const NARROW_HEIGHT_RATIO = 1.1;
/** A touch that moves less than this (px) between down and up is a tap, not a drag of the globe. */
const TAP_SLOP_PX = 10;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The globe's size for a box `width` px wide: GLOBE.height (GLOBE.heightLarge on large screens), square-ish on phones. */
export function globeSize(width: number, largeScreen: boolean): { width: number; height: number } {
  if (width < NARROW_WIDTH) return { width, height: Math.min(GLOBE.height, Math.round(width * NARROW_HEIGHT_RATIO)) };
  return { width, height: largeScreen ? GLOBE.heightLarge : GLOBE.height };
}

/**
 * The 3D globe (lazy chunk): country hexagons from the shipped world-atlas, one point per language. It takes the
 * width of its box (measured before the first paint, so the canvas is never wider than the screen).
 */
export default function LanguageGlobe({ points, labels, onSelect }: Props) {
  const ref = useRef<GlobeMethods | undefined>(undefined);
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const touchStart = useRef<{ x: number; y: number } | null>(null);

  // A tap is too short for the globe's hover detection: place it on the globe and pick the nearest language.
  const onTap = (e: PointerEvent<HTMLDivElement>) => {
    const start = touchStart.current;
    touchStart.current = null;
    const g = ref.current;
    const el = box.current;
    if (!start || !g || !el || Math.hypot(e.clientX - start.x, e.clientY - start.y) > TAP_SLOP_PX) return;
    const rect = el.getBoundingClientRect();
    const at = g.toGlobeCoords(e.clientX - rect.left, e.clientY - rect.top);
    const near = at && nearestPoint(points, at);
    if (near) onSelect(near);
  };

  const land = useMemo(() => {
    const topo = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
    return cleanCountryFeatures(feature(topo, topo.objects.countries) as unknown as FeatureCollection);
  }, []);
  const material = useMemo(() => new MeshPhongMaterial({ color: '#0b3b4a', emissive: '#06202a', shininess: 8 }), []);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setSize(globeSize(el.clientWidth, window.matchMedia('(min-width: 1280px)').matches));
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
    <div
      ref={box}
      className="globe-canvas"
      style={size ? { height: size.height } : undefined}
      onPointerDown={(e) => {
        touchStart.current = e.pointerType === 'mouse' ? null : { x: e.clientX, y: e.clientY };
      }}
      onPointerUp={onTap}
    >
      {size && size.width > 0 && (
        <Globe
          ref={ref}
          width={size.width}
          height={size.height}
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
          onPointHover={(p: object | null) => p && onSelect(p as GlobePoint)}
          onPointClick={(p: object) => onSelect(p as GlobePoint)}
          onGlobeClick={({ lat, lng }: { lat: number; lng: number }) => {
            const near = nearestPoint(points, { lat, lng });
            if (near) onSelect(near);
          }}
          onGlobeReady={onReady}
        />
      )}
    </div>
  );
}
