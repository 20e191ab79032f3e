import type { CitedPlace } from './ask-turn';

/** "Deploy runbook › Rolling back": the title, then the headings under it. */
export function placeName(place: Pick<CitedPlace, 'title' | 'headingPath'>): string {
  const headings = place.headingPath[0] === place.title ? place.headingPath.slice(1) : place.headingPath;
  return [place.title, ...headings].join(' › ');
}
