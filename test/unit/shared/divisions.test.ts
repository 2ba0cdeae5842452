import t from 'tap';
import {
  divisionNames,
  isDivisionCode,
  regionCodesOf,
} from '../../../services/shared/divisions.js';

t.test('known provinces and cities are valid codes; anything else is not', async (t) => {
  for (const code of ['310000', '310100', '440300', '110000', '110100', '500200', '650000']) {
    t.ok(isDivisionCode(code), code);
  }
  for (const code of [
    '',
    '31',
    '3100',
    '31000',
    '3100000',
    '310101', // a district: below city level
    '990000', // no such province
    '319900', // no such city
    'abcdef',
    ' 310000',
  ]) {
    t.notOk(isDivisionCode(code), JSON.stringify(code));
  }
});

t.test('a code expands to the regionCode array of a port, province first', async (t) => {
  t.same(regionCodesOf('310100'), ['310000', '310100']);
  t.same(regionCodesOf('440300'), ['440000', '440300']);
  t.same(regionCodesOf('310000'), ['310000']);
  t.equal(regionCodesOf('310101'), undefined);
  t.equal(regionCodesOf('990000'), undefined);
});

t.test('names of a division', async (t) => {
  t.same(divisionNames('440300'), { province: '广东省', city: '深圳市' });
  t.same(divisionNames('330100'), { province: '浙江省', city: '杭州市' });
  t.same(divisionNames('440000'), { province: '广东省', city: '广东省' }, 'province only');
  t.same(divisionNames('110100'), { province: '北京市', city: '北京市' }, '市辖区');
  t.same(divisionNames('310100'), { province: '上海市', city: '上海市' });
  t.same(divisionNames('500200'), { province: '重庆市', city: '重庆市' }, '县');
  t.same(divisionNames('419000'), { province: '河南省', city: '河南省' }, '省直辖县级行政区划');
  t.equal(divisionNames('110101'), undefined);
  t.equal(divisionNames('x'), undefined);
});
