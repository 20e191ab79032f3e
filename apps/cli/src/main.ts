import { runCli } from './program';

void runCli(process.argv, {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
}).then((code) => {
  // Not process.exitCode: idle keep-alive sockets would hold the process open for seconds.
  process.exit(code);
});
