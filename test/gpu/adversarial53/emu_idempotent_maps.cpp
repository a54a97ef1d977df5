#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cmath>
#include <random>
#include <functional>
#include <vector>
static float uf(uint32_t u){float f;memcpy(&f,&u,4);return f;} static uint32_t fu(float f){uint32_t u;memcpy(&u,&f,4);return u;}
int main(){
  std::vector<std::pair<const char*,std::function<uint32_t(uint32_t)>>> m = {
   {"fi_wrap_cmp",[](uint32_t v){return v+1u==0u?5u:v;}},
   {"fi_mul_inverse",[](uint32_t v){return v*3u==1u?1u:v;}},
   {"fi_unsigned_view",[](uint32_t v){return v>5u?0xffffffffu:v;}},
   {"fi_uchar_wrap_outcome",[](uint32_t w){uint8_t v=w; return (uint32_t)(uint8_t)(v>5?250:v);}},
   {"fi_char_flag_norm",[](uint32_t w){int8_t v=w; return (uint32_t)(uint8_t)(v!=0);}},
   {"fi_short_floor",[](uint32_t w){int16_t v=w; return (uint32_t)(uint16_t)(v< -100?(int16_t)-32768:v);}},
   {"fi_shl_cmp",[](uint32_t v){return (v<<4)==0u?0u:v;}},
   {"fi_ashr_sign",[](uint32_t w){int v=w; return (uint32_t)(((v>>31)==-1)?0x7fffffff:v);}},
   {"fi_neg_intmin",[](uint32_t w){int v=w; int n=(int)(0u-w); return (uint32_t)((v<0&&n>0)?1:v);}},
   {"ra_srem_negdiv",[](uint32_t w){int v=w; return (uint32_t)(v==INT32_MIN? 0+ (int)(((int64_t)v)%-7): v%-7);}},
   {"ra_srem_chain_mixed",[](uint32_t w){int64_t v=(int)w; return (uint32_t)(int)((v%-3)%100);}},
   {"ra_srem_intmin_div",[](uint32_t w){int64_t v=(int)w; return (uint32_t)(int)(v%(int64_t)INT32_MIN);}},
   {"ra_char_rem",[](uint32_t w){int8_t v=w; return (uint32_t)(uint8_t)(int8_t)(v%10);}},
   {"ra_char_abs",[](uint32_t w){int8_t v=w; return (uint32_t)(uint8_t)(int8_t)std::abs((int)v);}},
   {"ra_abs_intmin",[](uint32_t w){return w>>31? 0u-w : w;}},
   {"st_guard_cases_ok",[](uint32_t w){int x=w; return (uint32_t)(x>0?(x>=10?10:0):x);}},
   {"bl_two_sentinels",[](uint32_t w){int v=w; return (uint32_t)((v==-1||v==-2)?9:v);}},
   {"fx_subnormal_outcome",[](uint32_t v){float f=uf(v); return (f>0.f&&f<1e-30f)?1u:v;}},
   {"fx_flush_by_bits",[](uint32_t v){return (v&0x7f800000u)==0?0u:v;}},
   {"fx_negzero_outcome",[](uint32_t v){return uf(v)==0.f?0x80000000u:v;}},
   {"fx_sitofp_round",[](uint32_t w){int v=w; return (uint32_t)(((float)v>=16777216.f)?16777217:v);}},
   {"bl_nan_to_num",[](uint32_t v){float f=uf(v); return f!=f?0u:(f>1e30f?fu(1e30f):v);}},
   {"bl_step_boundary",[](uint32_t v){return uf(v)>=0.5f?fu(0.5f):0u;}},
   {"fx_fpext_isnan_ok",[](uint32_t v){double d=uf(v); return d!=d?0u:v;}},
  };
  std::mt19937 g(1); std::vector<uint32_t> S;
  for(int64_t e: {0LL,1LL,2LL,5LL,6LL,7LL,9LL,10LL,11LL,100LL,101LL,-1LL,-2LL,-3LL,-5LL,-7LL,-100LL,-101LL,-2147483648LL,2147483647LL,-2147483647LL,0x7fc00001LL,0x7f800000LL,0xff800000LL,0x80000000LL,0x10000LL,16777216LL,16777217LL,0xaaaaaaabLL})
    for(int d=-3;d<=3;d++) S.push_back((uint32_t)(e+d));
  for(int i=0;i<3000000;i++) S.push_back(g());
  for(uint32_t i=0;i<70000;i++){S.push_back(i);S.push_back(0u-i);S.push_back(0x80000000u+i);S.push_back(0x7f800000u+i);}
  for(auto&[n,f]:m){ long bad=0; uint32_t ex=0; for(uint32_t v:S){uint32_t a=f(v); if(f(a)!=a){bad++;ex=v;}} printf("%-24s %s%s\n",n,bad?"NOT idempotent, e.g. in=":"idempotent on sample", bad?std::to_string(ex).c_str():""); }
}
