import t from 'tap';
import { jvmHeapUsed } from '../../../../bench/soak/sampler.js';

t.test("a JVM's live heap: young and tenured `used` of jcmd GC.heap_info", async (t) => {
  const info = [
    '17094:',
    ' def new generation   total 116160K, used 30782K [0x0000000687400000, 0x000000068f200000)',
    '  eden space 103296K,  21% used [0x0000000687400000, 0x0000000688954cb0)',
    '  from space 12864K,  69% used [0x000000068e570000, 0x000000068ee2ae40)',
    ' tenured generation   total 258048K, used 7222K [0x0000000704d50000, 0x0000000714950000)',
    ' Metaspace       used 8726K, committed 8960K, reserved 1114112K',
  ].join('\n');
  t.equal(jvmHeapUsed(info), (30782 + 7222) * 1024, 'metaspace is not heap');
  t.ok(Number.isNaN(jvmHeapUsed('')), 'no answer (no jcmd, or the JVM is gone)');
});
