// Component tests: Arco needs its React 19 adapter before any component renders (`lib/` under
// Node, where the package resolves to its CommonJS build).
import '@arco-design/web-react/lib/_util/react-19-adapter';
