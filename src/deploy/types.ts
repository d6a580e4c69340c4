// The engine's names for the contract's deploy types (src/contract/deploy.ts).
export type { DeployMode, DeployState, DeployEntry, DeployFolder, DeployStep, DeployCell, DeployStatus } from '../contract/deploy.js';
