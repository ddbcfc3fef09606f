// Scratch driver: runs Microsoft's reference CHWTessellator (via Mesa's copy)
// on cases read from stdin and prints points (f32 bits) and indices.
#include "tessellator.hpp"
#include <cstdio>
#include <cstring>
#include <cstdint>
static float fb(unsigned x){float f; memcpy(&f,&x,4); return f;}
static unsigned bf(float f){unsigned x; memcpy(&x,&f,4); return x;}
int main(){
  char dom[16]; int part, out; unsigned e[4], in[2];
  CHWTessellator t;
  while (scanf("%15s %d %d %x %x %x %x %x %x", dom, &part, &out, &e[0],&e[1],&e[2],&e[3],&in[0],&in[1]) == 9) {
    t.Init((PIPE_TESSELLATOR_PARTITIONING)part, (PIPE_TESSELLATOR_OUTPUT_PRIMITIVE)out);
    if (!strcmp(dom,"tri")) t.TessellateTriDomain(fb(e[0]),fb(e[1]),fb(e[2]),fb(in[0]));
    else if (!strcmp(dom,"quad")) t.TessellateQuadDomain(fb(e[0]),fb(e[1]),fb(e[2]),fb(e[3]),fb(in[0]),fb(in[1]));
    else t.TessellateIsoLineDomain(fb(e[0]),fb(e[1]));
    int np = t.GetPointCount(), ni = t.GetIndexCount();
    DOMAIN_POINT* p = t.GetPoints(); int* ix = t.GetIndices();
    printf("%d %d", np, ni);
    for (int i=0;i<np;i++) printf(" %08x:%08x", bf(p[i].u), bf(p[i].v));
    printf(" |");
    for (int i=0;i<ni;i++) printf(" %d", ix[i]);
    printf("\n");
  }
}
