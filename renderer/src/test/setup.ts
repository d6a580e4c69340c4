// Component tests: Arco needs its React 19 adapter before any component renders (`lib/` under
// Node, where the package resolves to its CommonJS build).
import '@arco-design/web-react/lib/_util/react-19-adapter';
import { configure } from '@testing-library/react';

// The engine runs in a child process on a shared two-core machine: give it time to answer.
configure({ asyncUtilTimeout: 10_000 });
