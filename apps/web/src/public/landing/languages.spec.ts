import { describe, expect, it } from 'vitest';
import { LANGUAGE_POINTS, nearestPoint } from './languages';

describe('nearestPoint', () => {
  it('picks the language spoken closest to a tapped place', () => {
    expect(nearestPoint(LANGUAGE_POINTS, { lat: -13, lng: -72 })?.id).toBe('quechua');
    expect(nearestPoint(LANGUAGE_POINTS, { lat: 19, lng: -99.5 })?.id).toBe('nahuatl');
  });

  it('measures across the date line (179° and -179° are neighbours)', () => {
    const points = [
      { id: 'east', lat: 0, lng: 179 },
      { id: 'middle', lat: 0, lng: 150 },
    ];
    expect(nearestPoint(points, { lat: 0, lng: -179 })?.id).toBe('east');
  });

  it('answers null without points', () => {
    expect(nearestPoint([], { lat: 0, lng: 0 })).toBeNull();
  });
});
