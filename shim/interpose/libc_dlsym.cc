#include "shim/interpose/libc_dlsym.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdint>

namespace gpufftw {
namespace {

// An object's dynamic section as the loader left it: most loaders rewrite
// its addresses to absolute ones, some leave them relative to the base.
struct DynamicTables {
  const ElfW(Sym) *symtab = nullptr;
  const char *strtab = nullptr;
  const uint32_t *gnu_hash = nullptr;
  const ElfW(Word) *sysv_hash = nullptr;
};

DynamicTables tables_of(const link_map *lm) {
  DynamicTables t;
  const auto at = [lm](ElfW(Addr) p) { return p < lm->l_addr ? p + lm->l_addr : p; };
  for (const ElfW(Dyn) *d = lm->l_ld; d && d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
      case DT_SYMTAB: t.symtab = reinterpret_cast<const ElfW(Sym) *>(at(d->d_un.d_ptr)); break;
      case DT_STRTAB: t.strtab = reinterpret_cast<const char *>(at(d->d_un.d_ptr)); break;
      case DT_GNU_HASH: t.gnu_hash = reinterpret_cast<const uint32_t *>(at(d->d_un.d_ptr)); break;
      case DT_HASH: t.sysv_hash = reinterpret_cast<const ElfW(Word) *>(at(d->d_un.d_ptr)); break;
      default: break;
    }
  }
  return t;
}

// By hand, not strcmp: a sanitizer's runtime asks for dlsym before its own
// strcmp can run.
bool same(const char *a, const char *b) {
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}

bool defines(const DynamicTables &t, uint32_t i, const char *name) {
  const ElfW(Sym) &s = t.symtab[i];
  return s.st_shndx != SHN_UNDEF && s.st_value != 0 && ELF64_ST_TYPE(s.st_info) == STT_FUNC &&
         same(t.strtab + s.st_name, name);
}

// The symbol's index by the GNU hash table, or by the System V one.
long find(const DynamicTables &t, const char *name) {
  if (!t.symtab || !t.strtab) return -1;
  if (t.gnu_hash) {
    uint32_t h = 5381;
    for (const unsigned char *c = reinterpret_cast<const unsigned char *>(name); *c; ++c) h = h * 33 + *c;
    const uint32_t nbuckets = t.gnu_hash[0], symoffset = t.gnu_hash[1], bloom_size = t.gnu_hash[2];
    const auto *buckets = reinterpret_cast<const uint32_t *>(
        reinterpret_cast<const ElfW(Addr) *>(t.gnu_hash + 4) + bloom_size);
    const uint32_t *chain = buckets + nbuckets;
    for (uint32_t i = buckets[h % nbuckets]; i >= symoffset; ++i) {
      const uint32_t h2 = chain[i - symoffset];
      if ((h | 1) == (h2 | 1) && defines(t, i, name)) return i;
      if (h2 & 1) break;
    }
    return -1;
  }
  if (t.sysv_hash) {
    uint32_t h = 0;
    for (const unsigned char *c = reinterpret_cast<const unsigned char *>(name); *c; ++c) {
      h = (h << 4) + *c;
      const uint32_t g = h & 0xf0000000u;
      h = (h ^ (g >> 24)) & ~g;
    }
    const ElfW(Word) nbucket = t.sysv_hash[0];
    const ElfW(Word) *bucket = t.sysv_hash + 2, *chain = bucket + nbucket;
    for (ElfW(Word) i = bucket[h % nbucket]; i != STN_UNDEF; i = chain[i])
      if (defines(t, i, name)) return i;
  }
  return -1;
}

struct LibcLookups {
  DlsymFn dlsym = nullptr;
  DlvsymFn dlvsym = nullptr;
};

// dlerror is never interposed by gpufftw and lives in the same object as the
// C library's dlsym and dlvsym.
LibcLookups read_libc() {
  LibcLookups l;
  Dl_info info{};
  link_map *lm = nullptr;
  if (!dladdr1(reinterpret_cast<void *>(&dlerror), &info, reinterpret_cast<void **>(&lm), RTLD_DL_LINKMAP) || !lm)
    return l;
  const DynamicTables t = tables_of(lm);
  if (long i = find(t, "dlsym"); i >= 0) l.dlsym = reinterpret_cast<DlsymFn>(lm->l_addr + t.symtab[i].st_value);
  if (long i = find(t, "dlvsym"); i >= 0) l.dlvsym = reinterpret_cast<DlvsymFn>(lm->l_addr + t.symtab[i].st_value);
  return l;
}

// Read on first use into plain atomics, not a function's static: a
// sanitizer's runtime asks as it starts, before the guard of a static can
// run through its interceptors. Readers that race write the same values.
DlsymFn found_dlsym = nullptr;
DlvsymFn found_dlvsym = nullptr;

void read_once() {
  if (__atomic_load_n(&found_dlsym, __ATOMIC_ACQUIRE)) return;
  const LibcLookups l = read_libc();
  __atomic_store_n(&found_dlvsym, l.dlvsym, __ATOMIC_RELEASE);
  __atomic_store_n(&found_dlsym, l.dlsym, __ATOMIC_RELEASE);
}

}  // namespace

DlsymFn libc_dlsym() {
  read_once();
  return __atomic_load_n(&found_dlsym, __ATOMIC_ACQUIRE);
}
DlvsymFn libc_dlvsym() {
  read_once();
  return __atomic_load_n(&found_dlvsym, __ATOMIC_ACQUIRE);
}

}  // namespace gpufftw
