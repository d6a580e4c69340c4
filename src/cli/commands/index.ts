import type { CliCommand } from '../types.js';
import { serveCommand } from './serve.js';
import { assistantCommand } from './assistant.js';
import { launchCommand } from './launch.js';
import { workspacesCommand } from './workspaces.js';
import { stateCommand } from './state.js';
import { policyCommand } from './policy.js';
import { agentsCommand } from './agents.js';
import { lintCommand } from './lint.js';
import { listCommand } from './list.js';
import { showCommand } from './show.js';
import { rootsCommand } from './roots.js';
import { agentsViewCommand } from './agents-view.js';
import { scanCommand } from './scan.js';
import { approveCommand } from './approve.js';
import { importCommand } from './import.js';
import { adoptCommand } from './adopt.js';
import { deleteCommand } from './delete.js';
import { restoreCommand } from './restore.js';
import { trashCommand } from './trash.js';
import { exportCommand } from './export.js';
import { undoCommand } from './undo.js';
import { historyCommand } from './history.js';
import { doctorCommand } from './doctor.js';
import { newCommand } from './new.js';
import { addCommand } from './add.js';
import { checkCommand } from './check.js';
import { updateCommand } from './update.js';
import { pinCommand } from './pin.js';

// Each command lives in its own file; add one import and one entry per command.
export const commands: CliCommand[] = [
  serveCommand,
  assistantCommand,
  launchCommand,
  workspacesCommand,
  stateCommand,
  policyCommand,
  agentsCommand,
  lintCommand,
  listCommand,
  showCommand,
  rootsCommand,
  agentsViewCommand,
  scanCommand,
  approveCommand,
  importCommand,
  adoptCommand,
  deleteCommand,
  restoreCommand,
  trashCommand,
  exportCommand,
  undoCommand,
  historyCommand,
  doctorCommand,
  newCommand,
  addCommand,
  checkCommand,
  updateCommand,
  pinCommand,
];
