export { previousRelease, type Release, releaseLineProblems, releases, RELEASES_FILE, REPOSITORY_ROOT } from './releases';
