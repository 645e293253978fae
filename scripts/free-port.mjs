// Prints a TCP port that is free on 127.0.0.1 right now (the OS picks it: listen on port 0), so test
// servers never collide with other services on the machine.
import { createServer } from 'node:net';

const server = createServer();
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  server.close(() => console.log(port));
});
