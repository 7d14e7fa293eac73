import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { whenOf, withoutWhen } from '../../../src/pipeline/plan/when.js';

/** Issue 56: the time and the date a prompt gives a reminder, a booking or a deadline, as its form's fields take them. */
describe('a time and a date said in a prompt', () => {
  it('reads a clock time and a day with its month', () => {
    assert.deepEqual(whenOf('pay the water bill at 09:30 on 14 December'), { day: 14, month: 12, hours: 9, minutes: 30 });
    assert.deepEqual(whenOf('due 18:00 on 3rd of March'), { day: 3, month: 3, hours: 18, minutes: 0 });
    assert.deepEqual(whenOf('meet Sam at 7pm on March 3rd, 2027'), { day: 3, month: 3, year: 2027, hours: 19, minutes: 0 });
    assert.deepEqual(whenOf('the dentist at noon on 2027-01-05'), { year: 2027, month: 1, day: 5, hours: 12, minutes: 0 });
  });

  it('reads a time said in words, in the evening as after noon', () => {
    assert.deepEqual(whenOf('for a quarter to six in the evening on 30 June 2027'), { day: 30, month: 6, year: 2027, hours: 17, minutes: 45 });
    assert.deepEqual(whenOf('half past seven'), { hours: 7, minutes: 30 });
  });

  it('makes up no year, and reads nothing where nothing is said', () => {
    assert.equal(whenOf('14 December')?.year, undefined);
    assert.equal(whenOf('call mum'), null);
    assert.equal(whenOf('Show the pricing for teams of 5'), null);
  });

  it('leaves the words of the item without its time and date', () => {
    assert.equal(withoutWhen('pay the water bill at 09:30 on 14 December'), 'pay the water bill');
    assert.equal(withoutWhen('due 18:00 on 3 March'), '');
    assert.equal(withoutWhen('walk the dog'), 'walk the dog');
  });
});
