import t from 'tap';
import { brandsFor, REFUSAL_TEXT, sandboxAnswer } from '../../../sandbox/answers.js';
import { replyFor, Simulation } from '../../../sandbox/simulation.js';

t.test('directives fail the first N attempts per prompt and mode', async (t) => {
  const sim = new Simulation();
  const prompt = 'counted #fail:500x2';
  t.equal(sim.failureFor(prompt, 'search'), '500');
  t.equal(sim.failureFor(prompt, 'standard'), '500', 'another mode counts on its own');
  t.equal(sim.failureFor(prompt, 'search'), '500');
  t.equal(sim.failureFor(prompt, 'search'), undefined);
  sim.reset();
  t.equal(sim.failureFor(prompt, 'search'), '500', 'reset counts from zero');
  t.equal(sim.failureFor('always #fail:timeout', 'search'), 'timeout');
  t.equal(sim.failureFor('fine', 'search'), undefined, 'no failure rate: no failure');
});

t.test('the failure rate draws from the seeded PRNG, the same for the same seed', async (t) => {
  const draws = (seed: number) => {
    const sim = new Simulation({ failureRate: 0.5, seed });
    return Array.from({ length: 32 }, (_, i) => sim.failureFor(`p${i}`, 'standard') ?? 'ok');
  };
  t.same(draws(7), draws(7));
  t.not(draws(7).join(), draws(8).join(), 'another seed, another sequence');
  t.ok(draws(7).includes('ok') && draws(7).some((d) => d !== 'ok'));
  const always = new Simulation({ failureRate: 0 });
  t.equal(always.failureFor('x', 'standard', 1) !== undefined, true, 'a per-request rate wins');
});

t.test(
  '#vary: the lead brand in about that share of asks, the same draws every time',
  async (t) => {
    const prompt = 'varying CRM #vary:50';
    const lead = brandsFor(prompt)[0]!.name;
    const draws = () => {
      const sim = new Simulation();
      return Array.from({ length: 40 }, () => sim.withoutLead(prompt, 'search'));
    };
    const first = draws();
    t.same(draws(), first, 'deterministic by the ask number');
    const named = first.filter((out) => !out).length;
    t.ok(named > 10 && named < 30, `about half name ${lead}: ${named} of 40`);
    const without = sandboxAnswer(prompt, 'search', true);
    t.notMatch(without.answerContent, lead, 'left out everywhere in the answer');
    t.notMatch(JSON.stringify(without), lead);
    t.match(sandboxAnswer(prompt, 'search').answerContent, lead);
    t.same(sandboxAnswer(prompt, 'search'), sandboxAnswer('varying CRM', 'search'), 'stripped');
    const sim = new Simulation();
    t.notOk(sim.withoutLead('steady CRM', 'search'), 'no directive: always the lead');
    t.notOk(sim.withoutLead('always #vary:100', 'search'));
    t.ok(sim.withoutLead('never #vary:0', 'search'));
  },
);

t.test('latency: the prompt, then the request, then the knob', async (t) => {
  const sim = new Simulation({ latencyMs: 1500 });
  t.equal(sim.latencyFor('x'), 1500);
  t.equal(sim.latencyFor('x', 20), 20);
  t.equal(sim.latencyFor('x #latency:5', 20), 5);
  t.equal(sim.latencyFor('x', -3), 0);
  t.equal(new Simulation().latencyFor('x'), 0);
});

t.test('replies: answers, empty answers and filtered refusals', async (t) => {
  t.same(replyFor('best CRM', 'search', undefined), {
    answer: sandboxAnswer('best CRM', 'search'),
    finishReason: 'stop',
  });
  t.equal(replyFor('x', 'search', 'empty').answer.answerContent, '');
  const refusal = replyFor('x', 'search', 'refuse');
  t.equal(refusal.answer.answerContent, REFUSAL_TEXT);
  t.equal(refusal.finishReason, 'content_filter');
  t.same(refusal.answer.referenceList, []);
});
