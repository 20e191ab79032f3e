// The registry of connectors lives in the domain (the registry lib builds it); kept here for importers.
export { SourceConnectors } from '@trove/domain';
