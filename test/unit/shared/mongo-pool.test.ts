import t from 'tap';
import { MAX_IDLE_MS, MAX_POOL_SIZE, poolOptions } from '../../../services/shared/mongo-pool.js';

t.test('a URL without pool options gets the bounds', async (t) => {
  t.same(poolOptions('mongodb://127.0.0.1:27017/'), {
    maxPoolSize: MAX_POOL_SIZE,
    maxIdleTimeMS: MAX_IDLE_MS,
  });
  t.same(poolOptions('mongodb://127.0.0.1:27017/?retryWrites=false'), {
    maxPoolSize: MAX_POOL_SIZE,
    maxIdleTimeMS: MAX_IDLE_MS,
  });
});

t.test("the URL's own pool options win, whatever their case", async (t) => {
  t.same(poolOptions('mongodb://u:p@db1,db2/?replicaSet=rs&maxPoolSize=50'), {
    maxIdleTimeMS: MAX_IDLE_MS,
  });
  t.same(poolOptions('mongodb+srv://db.example/?maxpoolsize=5&MAXIDLETIMEMS=1000'), {});
});
