const pg = require('pg');
(async () => {
  const c = new pg.Client({ connectionString: 'postgres://trove@127.0.0.1:5432/trove' });
  await c.connect();
  const r = await c.query(process.argv[2]);
  console.table(r.rows);
  await c.end();
})();
