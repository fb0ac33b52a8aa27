import { describe, expect, it } from 'vitest';
import { clipAtEntry, smoothPath, svgNumber } from '../../../src/diagram/svgGeometry.js';

const frame = { x: 0, y: 100, width: 200, height: 100 };

describe('clipAtEntry', () => {
  it('ends a polyline where it first crosses into the rectangle', () => {
    const points = [
      { x: 50, y: 0 },
      { x: 50, y: 50 },
      { x: 100, y: 150 },
    ];
    expect(clipAtEntry(points, frame)).toEqual([
      { x: 50, y: 0 },
      { x: 50, y: 50 },
      { x: 75, y: 100 },
    ]);
  });

  it('cuts a segment that passes through the rectangle without ending in it', () => {
    const points = [
      { x: -100, y: 150 },
      { x: 300, y: 150 },
    ];
    expect(clipAtEntry(points, frame)).toEqual([
      { x: -100, y: 150 },
      { x: 0, y: 150 },
    ]);
  });

  it('leaves a polyline that starts inside, or never enters, unchanged', () => {
    const inside = [
      { x: 10, y: 110 },
      { x: 300, y: 300 },
    ];
    const outside = [
      { x: 0, y: 0 },
      { x: 300, y: 0 },
    ];
    expect(clipAtEntry(inside, frame)).toEqual(inside);
    expect(clipAtEntry(outside, frame)).toEqual(outside);
    expect(clipAtEntry([], frame)).toEqual([]);
  });
});

describe('smoothPath', () => {
  it('draws two points as one straight line', () => {
    expect(
      smoothPath([
        { x: 0, y: 0 },
        { x: 10.04, y: 20 },
      ]),
    ).toBe('M0 0L10 20');
  });

  it('rounds each inner corner with a quadratic curve between segment midpoints', () => {
    const points = [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 10 },
      { x: 20, y: 10 },
    ];
    expect(smoothPath(points)).toBe('M0 0L5 0Q10 0 10 5L10 5Q10 10 15 10L20 10');
  });

  it('draws nothing for no points', () => {
    expect(smoothPath([])).toBe('');
  });
});

describe('svgNumber', () => {
  it('rounds to one decimal and never writes -0', () => {
    expect(svgNumber(12.345)).toBe('12.3');
    expect(svgNumber(7)).toBe('7');
    expect(svgNumber(-0.04)).toBe('0');
    expect(svgNumber(-2.25)).toBe('-2.2');
  });
});
