// Roots of unity of the butterflies' radices and of the composite lengths
// that run whole in registers (6, 9, 10, 12, 14, 15), to double precision.
// Written as literals behind switches so that, once a butterfly's loops are
// unrolled, every call folds to a constant operand and no table is read.
#pragma once

namespace gpufftw::engine::kernels {

// cos(2*pi*k/r) for 0 <= k <= r/2, r one of 3, 5, 7, 9, 11, 12, 13, 15, 16.
__host__ __device__ constexpr double half_cos(int k, int r) {
  if (k == 0) return 1.0;
  switch (r * 100 + k) {
    case 301: return -0.5;
    case 501: return 0.309016994374947424102;
    case 502: return -0.809016994374947424102;
    case 701: return 0.623489801858733530525;
    case 702: return -0.222520933956314404289;
    case 703: return -0.900968867902419126236;
    case 901: return 0.766044443118978035202;
    case 902: return 0.173648177666930348852;
    case 903: return -0.5;
    case 904: return -0.939692620785908384054;
    case 1101: return 0.841253532831181168862;
    case 1102: return 0.415415013001886425529;
    case 1103: return -0.142314838273285140444;
    case 1104: return -0.654860733945285064057;
    case 1105: return -0.95949297361449738989;
    case 1201: return 0.866025403784438646764;
    case 1202: return 0.5;
    case 1203: return 0.0;
    case 1204: return -0.5;
    case 1205: return -0.866025403784438646764;
    case 1301: return 0.8854560256532098959;
    case 1302: return 0.568064746731155802512;
    case 1303: return 0.120536680255323053349;
    case 1304: return -0.35460488704253562597;
    case 1305: return -0.748510748171101098635;
    case 1306: return -0.970941817426052027157;
    case 1501: return 0.913545457642600895502;
    case 1502: return 0.669130606358858213826;
    case 1503: return 0.309016994374947424102;
    case 1504: return -0.104528463267653471400;
    case 1505: return -0.5;
    case 1506: return -0.809016994374947424102;
    case 1507: return -0.978147600733805637929;
    case 1601: return 0.923879532511286756128;
    case 1602: return 0.707106781186547524401;
    case 1603: return 0.382683432365089771728;
    case 1604: return 0.0;
    case 1605: return -0.382683432365089771728;
    case 1606: return -0.707106781186547524401;
    case 1607: return -0.923879532511286756128;
    default: return -1.0;  // k == r/2 for r == 12, 16
  }
}

// sin(2*pi*k/r) for 0 <= k <= r/2, likewise.
__host__ __device__ constexpr double half_sin(int k, int r) {
  if (k == 0 || 2 * k == r) return 0.0;
  if (r == 16) return half_cos(k < 4 ? 4 - k : k - 4, 16);  // sin t = cos(t - pi/2)
  switch (r * 100 + k) {
    case 301: return 0.866025403784438646764;
    case 501: return 0.951056516295153572116;
    case 502: return 0.587785252292473129169;
    case 701: return 0.781831482468029808708;
    case 702: return 0.974927912181823607018;
    case 703: return 0.433883739117558120476;
    case 901: return 0.642787609686539326323;
    case 902: return 0.984807753012208059367;
    case 903: return 0.866025403784438646764;
    case 904: return 0.342020143325668733044;
    case 1101: return 0.540640817455597582108;
    case 1102: return 0.909631995354518371412;
    case 1103: return 0.989821441880932732376;
    case 1104: return 0.755749574354258283774;
    case 1105: return 0.281732556841429697711;
    case 1201: return 0.5;
    case 1202: return 0.866025403784438646764;
    case 1203: return 1.0;
    case 1204: return 0.866025403784438646764;
    case 1205: return 0.5;
    case 1301: return 0.464723172043768545656;
    case 1302: return 0.82298386589365639458;
    case 1303: return 0.992708874098053992801;
    case 1304: return 0.93501624268541482344;
    case 1305: return 0.663122658240795202377;
    case 1306: return 0.239315664287557767149;
    case 1501: return 0.406736643075800207754;
    case 1502: return 0.743144825477394235015;
    case 1503: return 0.951056516295153572116;
    case 1504: return 0.994521895368273336923;
    case 1505: return 0.866025403784438646764;
    case 1506: return 0.587785252292473129169;
    default: return 0.207911690817759337102;  // 15, 7
  }
}

// A turn k/r as one the tables above hold: the powers of two as sixteenths,
// twice an odd r through exp(2*pi*i*k/r) = -exp(2*pi*i*(k + r/2)/r), k + r/2 even.
// `neg`: the root is the negative of the one returned in k and r.
__host__ __device__ constexpr void reduce_turn(int &k, int &r, bool &neg) {
  k %= r;
  neg = false;
  if (16 % r == 0) {
    k *= 16 / r;
    r = 16;
  } else if (r % 2 == 0 && r % 4 != 0) {
    neg = k % 2 == 1;
    k = (neg ? k + r / 2 : k) / 2 % (r / 2);
    r /= 2;
  }
}

// cos and sin of 2*pi*k/r for any k, r one of 2 ... 16.
__host__ __device__ constexpr double root_cos(int k, int r) {
  bool neg = false;
  reduce_turn(k, r, neg);
  const double c = half_cos(2 * k > r ? r - k : k, r);
  return neg ? -c : c;
}
__host__ __device__ constexpr double root_sin(int k, int r) {
  bool neg = false;
  reduce_turn(k, r, neg);
  const double s = 2 * k > r ? -half_sin(r - k, r) : half_sin(k, r);
  return neg ? -s : s;
}

}  // namespace gpufftw::engine::kernels
