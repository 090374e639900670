/* kg.nlp._tagger: the inner loops of the linear tagger (kg/nlp/components/tagger.py) in C.
 *
 * Feature hashing, emission scores and Viterbi decoding, each over whole batches, plus all three fused per sentence
 * for prediction; and the lookups of a table that caches each word's affix hashes for the feature columns. Arrays
 * come in through the buffer protocol (C-contiguous, native byte order: numpy arrays), and outputs go into arrays
 * the caller allocates; the GIL is released while the loops run (not the affix table's, which are short). The
 * arithmetic is that of the numpy code this replaces, in the same order, so that results are bit-identical: uint64
 * hashing that wraps, float32 sums of weight rows in template order, ties in a maximum going to the lowest index
 * (numpy's argmax). The float operations are additions, and the exact scaling of a subnormal float16 weight by a
 * power of two (an FMA made of it would round the same); build without -ffast-math.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define FORBIDDEN_TAG (-1e9f) /* added to the emission of a tag the ``allowed`` mask rules out */
#define MAX_BUFFERS 12

/* Functions marked VECTORS are compiled twice: for AVX2 and for any x86-64 (SSE2); the loader picks the CPU's (an
 * ifunc). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VECTORS __attribute__((target_clones("avx2", "default")))
#else
#define VECTORS
#endif

/* ------------------------------------------------------------------------------------------------ arrays */

typedef struct {
    Py_buffer views[MAX_BUFFERS];
    int n;
} Buffers;

static void release(Buffers *b)
{
    while (b->n > 0)
        PyBuffer_Release(&b->views[--b->n]);
}

/* The element kind of a buffer format: 'i' signed or 'u' unsigned integer, 'f' float, '?' bool; 0 if unknown or
 * not in native byte order. */
static char format_kind(const char *format)
{
    if (format == NULL)
        return 'u'; /* plain bytes */
    if (*format == '@' || *format == '=')
        format++;
    else if (*format == '<' || *format == '>' || *format == '!') {
        if ((*format == '<') != PY_LITTLE_ENDIAN)
            return 0;
        format++;
    }
    if (format[0] == 0 || format[1] != 0)
        return 0;
    if (strchr("bhilqn", *format))
        return 'i';
    if (strchr("BHILQN", *format))
        return 'u';
    if (strchr("efd", *format))
        return 'f';
    return *format == '?' ? '?' : 0;
}

/* Gets a C-contiguous buffer of ``ndim`` dimensions whose items are ``kind`` (see format_kind; '?' also takes
 * uint8) and ``itemsize`` bytes (0: floats of 2 or 4 bytes); NULL with an exception set otherwise. Released by
 * release(). */
static Py_buffer *get(Buffers *b, PyObject *obj, const char *name, char kind, Py_ssize_t itemsize, int ndim,
                      int writable)
{
    if (b->n == MAX_BUFFERS) {
        PyErr_SetString(PyExc_SystemError, "_tagger: too many buffers");
        return NULL;
    }
    Py_buffer *view = &b->views[b->n];
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0)
        return NULL;
    b->n++;
    char got = format_kind(view->format);
    if (kind == '?' && got == 'u')
        got = '?';
    int size_ok = itemsize ? view->itemsize == itemsize : view->itemsize == 2 || view->itemsize == 4;
    if (got != kind || !size_ok || view->ndim != ndim) {
        static const char *kinds[] = {"signed integer", "unsigned integer", "float", "bool"};
        const char *what = kinds[kind == 'i' ? 0 : kind == 'u' ? 1 : kind == 'f' ? 2 : 3];
        if (itemsize)
            PyErr_Format(PyExc_TypeError, "%s: expected a %d-d array of %zd-byte %s, got format '%s', %d-d", name,
                         ndim, itemsize, what, view->format ? view->format : "B", view->ndim);
        else
            PyErr_Format(PyExc_TypeError, "%s: expected a %d-d array of 2- or 4-byte %s, got format '%s', %d-d",
                         name, ndim, what, view->format ? view->format : "B", view->ndim);
        return NULL;
    }
    return view;
}

static Py_ssize_t dim(const Py_buffer *view, int k)
{
    return view->shape[k];
}

static int check(int ok, PyObject *error, const char *message)
{
    if (!ok)
        PyErr_SetString(error, message);
    return ok;
}

/* ------------------------------------------------------------------------------------------------ features */

/* splitmix64's finaliser */
static inline uint64_t mix(uint64_t h)
{
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
    return h ^ (h >> 31);
}

/* What hashes a row: the column matrix from its first real row on, and per template its seed and parts. */
typedef struct {
    const uint64_t *base;   /* whole + pad: row i's own value of column c is base[c * width + i] */
    Py_ssize_t rows;        /* real rows: width - 2 * pad */
    Py_ssize_t n_templates;
    const uint64_t *seeds;
    Py_ssize_t *ends;       /* template t hashes parts ends[t - 1] (0 for t = 0) to ends[t] - 1 */
    Py_ssize_t *at;         /* per part: c * width + offset */
    uint64_t mask;
    void *memory;
} Features;

/* Reads and checks the arguments that describe the features: ``whole`` (uint64, columns x (rows + 2 * pad)),
 * ``seeds`` (uint64, templates), ``parts`` (int64, parts x 2: column, offset), ``ends`` (int64, templates). */
static int features(Features *f, Buffers *b, PyObject *whole_obj, PyObject *seeds_obj, PyObject *parts_obj,
                    PyObject *ends_obj, Py_ssize_t pad, int bits)
{
    Py_buffer *whole = get(b, whole_obj, "whole", 'u', 8, 2, 0);
    Py_buffer *seeds = whole ? get(b, seeds_obj, "seeds", 'u', 8, 1, 0) : NULL;
    Py_buffer *parts = seeds ? get(b, parts_obj, "parts", 'i', 8, 2, 0) : NULL;
    Py_buffer *ends = parts ? get(b, ends_obj, "ends", 'i', 8, 1, 0) : NULL;
    if (!ends)
        return -1;
    Py_ssize_t n_columns = dim(whole, 0), width = dim(whole, 1), n_parts = dim(parts, 0);
    f->n_templates = dim(seeds, 0);
    if (!check(bits >= 0 && bits <= 63, PyExc_ValueError, "bits: 0 to 63")
        || !check(pad >= 0 && width >= 2 * pad, PyExc_ValueError, "whole: fewer columns than twice the padding")
        || !check(dim(parts, 1) == 2, PyExc_ValueError, "parts: (column, offset) pairs")
        || !check(dim(ends, 0) == f->n_templates, PyExc_ValueError, "ends: one per template"))
        return -1;
    f->rows = width - 2 * pad;
    f->base = (const uint64_t *)whole->buf + pad;
    f->seeds = seeds->buf;
    f->mask = ((uint64_t)1 << bits) - 1;
    f->memory = PyMem_Malloc(sizeof(Py_ssize_t) * (f->n_templates + n_parts + 1));
    if (!f->memory) {
        PyErr_NoMemory();
        return -1;
    }
    f->ends = f->memory;
    f->at = f->ends + f->n_templates;
    const int64_t *e = ends->buf, *p = parts->buf;
    for (Py_ssize_t t = 0; t < f->n_templates; t++) {
        if (!check(e[t] >= (t ? e[t - 1] : 0) && e[t] <= n_parts, PyExc_ValueError,
                   "ends: non-decreasing, at most the number of parts"))
            return -1;
        f->ends[t] = (Py_ssize_t)e[t];
    }
    for (Py_ssize_t k = 0; k < n_parts; k++) {
        int64_t column = p[2 * k], offset = p[2 * k + 1];
        if (!check(column >= 0 && column < n_columns, PyExc_ValueError, "parts: no such column")
            || !check(offset >= -pad && offset <= pad, PyExc_ValueError, "parts: offset beyond the padding"))
            return -1;
        f->at[k] = (Py_ssize_t)(column * width + offset);
    }
    return 0;
}

static void features_free(Features *f)
{
    PyMem_Free(f->memory);
    f->memory = NULL;
}

/* The feature rows (row indices into the weight table) of row i: per template, the seed mixed with each part's
 * value in turn, masked to ``bits`` bits. */
static inline void hash_row(const Features *f, Py_ssize_t i, int64_t *restrict out)
{
    const uint64_t *restrict row = f->base + i;
    const uint64_t *restrict seeds = f->seeds;
    const Py_ssize_t *restrict ends = f->ends, *restrict at = f->at;
    const Py_ssize_t n = f->n_templates;
    const uint64_t mask = f->mask;
    Py_ssize_t k = 0;
    for (Py_ssize_t t = 0; t < n; t++) {
        uint64_t h = seeds[t];
        const Py_ssize_t stop = ends[t];
        for (; k < stop; k++)
            h = mix(h ^ row[at[k]]);
        out[t] = (int64_t)(h & mask);
    }
}

/* hash_row's feature rows of rows a to a + n - 1, template by template: ids[t * n + j] is row a + j's of template t.
 * Each part is mixed into all n hashes in one loop over a column, which the compiler vectorises (four rows per
 * AVX2 instruction, the 64-bit multiplications made of 32-bit ones): a third of the instructions of a row at a
 * time, whose loops over a row's 30 templates and their one or two parts cost more than the mixing. */
VECTORS static void hash_rows(const Features *f, Py_ssize_t a, Py_ssize_t n, uint64_t *restrict ids)
{
    const uint64_t *restrict base = f->base + a;
    Py_ssize_t k = 0;
    for (Py_ssize_t t = 0; t < f->n_templates; t++) {
        uint64_t *restrict h = ids + t * n;
        const uint64_t seed = f->seeds[t];
        const Py_ssize_t first = k, stop = f->ends[t];
        if (first == stop)
            for (Py_ssize_t j = 0; j < n; j++)
                h[j] = seed & f->mask;
        for (; k < stop; k++) {
            const uint64_t *restrict v = base + f->at[k];
            const uint64_t keep = k + 1 < stop ? ~(uint64_t)0 : f->mask; /* masked after the last part */
            if (k == first)
                for (Py_ssize_t j = 0; j < n; j++)
                    h[j] = mix(seed ^ v[j]) & keep;
            else
                for (Py_ssize_t j = 0; j < n; j++)
                    h[j] = mix(h[j] ^ v[j]) & keep;
        }
    }
}

/* ------------------------------------------------------------------------------------------------ scores */

/* Sums and decoding keep eight tags per vector (GCC/clang vector extensions): the same float32 adds and comparisons,
 * lane by lane, as one tag at a time. The functions that use them are compiled twice (VECTORS): for AVX2, one
 * instruction per vector, and for any x86-64, two SSE2 halves; the loader picks the CPU's (an ifunc). The tagger's
 * prediction took 1.12M instructions per synthetic abstract with four-tag SSE2 vectors. */
typedef float f8 __attribute__((vector_size(32)));
typedef int32_t i8 __attribute__((vector_size(32)));
#define LANES 8

static inline f8 loadv(const float *p)
{
    f8 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Half floats (IEEE binary16, as numpy's float16) to float32, exactly: a normal half's exponent is rebased by
 * integer addition (127 - 15), an infinity's or NaN's set to all ones, and a subnormal half (a whole number of
 * 2**-24) is converted from its integer mantissa and scaled, which gives a normal float32. No float operation
 * sees a subnormal, so the results do not depend on the CPU's flush-to-zero modes. */
typedef uint16_t h8 __attribute__((vector_size(16)));
typedef uint32_t u8 __attribute__((vector_size(32)));

static inline f8 half8(const uint16_t *p)
{
    h8 h;
    memcpy(&h, p, sizeof h);
    const u8 x = __builtin_convertvector(h, u8);
    const u8 magnitude = x & 0x7fff, exponent = x & 0x7c00;
    const u8 normal = (magnitude << 13) + (112u << 23) + ((u8)(exponent == 0x7c00) & (112u << 23));
    const f8 small = __builtin_convertvector((i8)magnitude, f8) * 0x1p-24f;
    const i8 tiny = (i8)(exponent == 0);
    const u8 bits = (u8)(((i8)small & tiny) | ((i8)normal & ~tiny)) | (x & 0x8000) << 16;
    f8 v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

static inline float half1(uint16_t h)
{
    const uint32_t magnitude = h & 0x7fff, exponent = h & 0x7c00;
    const float small = (float)(int32_t)magnitude * 0x1p-24f;
    uint32_t tiny, bits = (magnitude << 13) + (112u << 23) + ((exponent == 0x7c00) ? 112u << 23 : 0);
    memcpy(&tiny, &small, sizeof tiny);
    bits = exponent == 0 ? tiny : bits; /* (a select, not a branch: four in five weights are zero) */
    bits |= (uint32_t)(h & 0x8000) << 16;
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* With F16C (x86-64 CPUs since 2012), one instruction converts eight halves: the shipped tagger's 17-tag rows are
 * summed by this function where the CPU has it (asked once, at import), by sum_places otherwise. The conversion
 * is exact either way. Tag 16 is the last lane of a third vector, tags 9 to 16 (its other lanes repeat the second
 * vector's sums, the same adds of the same values, and are written over them). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#define HALF_BY_CPU 1
static int cpu_converts_halves;

__attribute__((target("avx2,f16c"))) static void sum_half17(const uint16_t *rows, const uint32_t *at, Py_ssize_t n,
                                                              float *out)
{
    const uint16_t *row = rows + (Py_ssize_t)at[0] * 17;
    __m256 s0 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)row));
    __m256 s1 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(row + 8)));
    __m256 s2 = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(row + 9)));
    for (Py_ssize_t k = 1; k < n; k++) {
        row = rows + (Py_ssize_t)at[k] * 17;
        s0 = _mm256_add_ps(s0, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)row)));
        s1 = _mm256_add_ps(s1, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(row + 8))));
        s2 = _mm256_add_ps(s2, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(row + 9))));
    }
    _mm256_storeu_ps(out, s0);
    _mm256_storeu_ps(out + 8, s1);
    _mm256_storeu_ps(out + 9, s2);
}
#endif

/* The weight table for prediction, without its zero rows: ``index`` (uint32, one entry per feature row) gives each
 * feature row's place in ``rows`` (float32 or float16, kept x tags), whose row 0 is zeros and stands for every zero
 * row. A quarter of the 2**20 rows of the shipped tagger are non-zero, so the two arrays take 13 MB with float16
 * rows (as the shipped weights are stored) where the full float32 table takes 71 MB. A row takes two dependent
 * reads, the index entry and the row, so prediction reads a sequence's index entries and fetches its rows before
 * it sums any.
 * The sums are the same: a zero row adds the same zeros wherever it is read from, and a float16 row is converted
 * to float32, exactly, before the same float32 adds (its 34 bytes are one or two cache lines where a float32 row's
 * 68 are two or three: the sums wait on memory less). */
typedef struct {
    const uint32_t *index;
    const char *rows;
    Py_ssize_t n_index, n_rows, n_tags, row_bytes;
    int half; /* float16 rows */
} Compact;

/* Reads weight rows (float32 or float16, rows x tags) into ``w``, without an index. */
static int weight_rows(Compact *w, Buffers *b, PyObject *rows_obj, const char *name)
{
    Py_buffer *rows = get(b, rows_obj, name, 'f', 0, 2, 0);
    if (!rows || !check(dim(rows, 0) <= UINT32_MAX, PyExc_ValueError, "weights: too many rows"))
        return -1;
    w->index = NULL;
    w->n_index = 0;
    w->rows = rows->buf;
    w->n_rows = dim(rows, 0);
    w->n_tags = dim(rows, 1);
    w->half = rows->itemsize == 2;
    w->row_bytes = w->n_tags * rows->itemsize;
    return 0;
}

static int compact(Compact *w, Buffers *b, PyObject *index_obj, PyObject *rows_obj)
{
    Py_buffer *index = get(b, index_obj, "index", 'u', 4, 1, 0);
    if (!index || weight_rows(w, b, rows_obj, "rows") < 0
        || !check(w->n_rows >= 1, PyExc_ValueError, "rows: at least the zero row"))
        return -1;
    w->index = index->buf;
    w->n_index = dim(index, 0);
    return 0;
}

/* The places in ``rows`` of a sequence's feature rows (``ids``: templates x n, as hash_rows gives them) into ``at``
 * (n x templates, row by row as sum_places reads them), asking the caches for each weight row (its first and last
 * byte: a row spans up to three cache lines) ahead of the sums. -1 if an id is beyond the index or its entry
 * beyond the rows. */
static int places(const Compact *w, const uint64_t *ids, Py_ssize_t n, Py_ssize_t n_templates, uint32_t *at)
{
    for (Py_ssize_t t = 0; t < n_templates; t++)
        for (Py_ssize_t j = 0; j < n; j++) {
            const uint64_t id = ids[t * n + j];
            if (id >= (uint64_t)w->n_index)
                return -1;
            const uint32_t place = w->index[id];
            if (place >= (uint64_t)w->n_rows)
                return -1;
            at[j * n_templates + t] = place;
            const char *row = w->rows + (Py_ssize_t)place * w->row_bytes;
            __builtin_prefetch(row);
            __builtin_prefetch(row + w->row_bytes - 1);
            if (w->row_bytes > 64)
                __builtin_prefetch(row + 64);
        }
    return 0;
}

/* out = the sum of the rows at ``at`` (n >= 1 of them), added in order: row at[0], then += row at[1], ...; eight
 * tags per vector, each tag's adds in the same order as one at a time. Float16 rows are converted to float32 first
 * (by the CPU's F16C for 17 tags where it has it). */
VECTORS static void sum_places(const Compact *w, const uint32_t *at, Py_ssize_t n, float *out)
{
    const Py_ssize_t n_tags = w->n_tags, whole = n_tags / LANES * LANES;
    if (w->half) {
        const uint16_t *rows = (const uint16_t *)w->rows;
#ifdef HALF_BY_CPU
        if (n_tags == 17 && cpu_converts_halves) {
            sum_half17(rows, at, n, out);
            return;
        }
#endif
        for (Py_ssize_t k = 0; k < n; k++) {
            const uint16_t *row = rows + (Py_ssize_t)at[k] * n_tags;
            Py_ssize_t j = 0;
            for (; j < whole; j += LANES) {
                f8 sum = k ? loadv(out + j) + half8(row + j) : half8(row + j);
                memcpy(out + j, &sum, sizeof sum);
            }
            for (; j < n_tags; j++)
                out[j] = k ? out[j] + half1(row[j]) : half1(row[j]);
        }
        return;
    }
    const float *rows = (const float *)w->rows;
    if (n_tags == 17) {  /* the shipped tagger's 17 tags: two vectors and one tag, summed in registers over all rows
                          * rather than through ``out`` (the same adds in the same order) */
        const float *row = rows + (Py_ssize_t)at[0] * 17;
        f8 s0 = loadv(row), s1 = loadv(row + 8);
        float s2 = row[16];
        for (Py_ssize_t k = 1; k < n; k++) {
            row = rows + (Py_ssize_t)at[k] * 17;
            s0 += loadv(row);
            s1 += loadv(row + 8);
            s2 += row[16];
        }
        memcpy(out, &s0, sizeof s0);
        memcpy(out + 8, &s1, sizeof s1);
        out[16] = s2;
        return;
    }
    memcpy(out, rows + (Py_ssize_t)at[0] * n_tags, sizeof(float) * n_tags);
    for (Py_ssize_t k = 1; k < n; k++) {
        const float *row = rows + (Py_ssize_t)at[k] * n_tags;
        Py_ssize_t j = 0;
        for (; j < whole; j += LANES) {
            f8 sum = loadv(out + j) + loadv(row + j);
            memcpy(out + j, &sum, sizeof sum);
        }
        for (; j < n_tags; j++)
            out[j] += row[j];
    }
}

/* ------------------------------------------------------------------------------------------------ decoding */

/* Decoding keeps eight tags per vector (see f8 above). Rows of tags are padded to a multiple of eight. */

/* What decodes: move scores ``step`` ((N + 1) x N: [from, to], last row from the start, forbidden moves included
 * as large negative scores) and end scores ``end`` (N), plus scratch for the longest sequence. */
typedef struct {
    Py_ssize_t n_tags, width; /* width: n_tags rounded up to whole vectors */
    const float *end;
    float *moves;             /* (N + 1) x width: step, padded with zeros */
    float *score, *best;      /* width each */
    int32_t *arg;             /* width */
    uint8_t *back;            /* longest x N: the best predecessor of each tag at each row */
    void *memory;
} Decoder;

static int decoder(Decoder *d, Buffers *b, PyObject *step_obj, PyObject *end_obj, Py_ssize_t n_tags,
                   Py_ssize_t longest)
{
    Py_buffer *step = get(b, step_obj, "step", 'f', 4, 2, 0);
    Py_buffer *end = step ? get(b, end_obj, "end", 'f', 4, 1, 0) : NULL;
    if (!end)
        return -1;
    if (!check(n_tags >= 1 && n_tags <= 256, PyExc_ValueError, "1 to 256 tags")
        || !check(dim(step, 0) == n_tags + 1 && dim(step, 1) == n_tags, PyExc_ValueError,
                  "step: (tags + 1) x tags")
        || !check(dim(end, 0) == n_tags, PyExc_ValueError, "end: one per tag"))
        return -1;
    Py_ssize_t width = (n_tags + LANES - 1) / LANES * LANES;
    d->n_tags = n_tags;
    d->width = width;
    d->end = end->buf;
    d->memory = PyMem_Calloc(1, sizeof(float) * (n_tags + 4) * width + (size_t)longest * n_tags + 1);
    if (!d->memory) {
        PyErr_NoMemory();
        return -1;
    }
    d->moves = d->memory;
    d->score = d->moves + (n_tags + 1) * width;
    d->best = d->score + width;
    d->arg = (int32_t *)(d->best + width);
    d->back = (uint8_t *)(d->arg + width);
    for (Py_ssize_t from = 0; from <= n_tags; from++)
        memcpy(d->moves + from * width, (const float *)step->buf + from * n_tags, sizeof(float) * n_tags);
    return 0;
}

static void decoder_free(Decoder *d)
{
    PyMem_Free(d->memory);
    d->memory = NULL;
}

/* The emission of tag t at a row: its score, plus FORBIDDEN_TAG where a mask is given and rules the tag out. */
static inline float emission(const float *em, const uint8_t *allowed, Py_ssize_t t)
{
    return allowed ? em[t] + (allowed[t] ? 0.0f : FORBIDDEN_TAG) : em[t];
}

/* best[to] = the best of score[from] + step[from, to] over all ``from``, and arg[to] = the lowest ``from`` that
 * reaches it: ``from`` goes up and only a strictly better score replaces the best so far. */
static inline __attribute__((always_inline)) void best_moves(const Decoder *d)
{
    const Py_ssize_t N = d->n_tags, width = d->width;
    const float *score = d->score;
    if (width == 3 * LANES) {  /* 17 to 24 tags (the shipped tagger's 17): the three vectors' chains of compares
                                * interleaved rather than one after another (each lane's compares as below) */
        const float *m = d->moves;
        f8 b0 = score[0] + loadv(m), b1 = score[0] + loadv(m + LANES), b2 = score[0] + loadv(m + 2 * LANES);
        i8 a0 = {0}, a1 = {0}, a2 = {0};
        for (Py_ssize_t from = 1; from < N; from++) {
            const float *row = m + from * width;
            const float s = score[from];
            f8 v0 = s + loadv(row), v1 = s + loadv(row + LANES), v2 = s + loadv(row + 2 * LANES);
            i8 g0 = v0 > b0, g1 = v1 > b1, g2 = v2 > b2;
            b0 = (f8)(((i8)v0 & g0) | ((i8)b0 & ~g0));
            b1 = (f8)(((i8)v1 & g1) | ((i8)b1 & ~g1));
            b2 = (f8)(((i8)v2 & g2) | ((i8)b2 & ~g2));
            a0 = ((int32_t)from & g0) | (a0 & ~g0);
            a1 = ((int32_t)from & g1) | (a1 & ~g1);
            a2 = ((int32_t)from & g2) | (a2 & ~g2);
        }
        memcpy(d->best, &b0, sizeof b0);
        memcpy(d->best + LANES, &b1, sizeof b1);
        memcpy(d->best + 2 * LANES, &b2, sizeof b2);
        memcpy(d->arg, &a0, sizeof a0);
        memcpy(d->arg + LANES, &a1, sizeof a1);
        memcpy(d->arg + 2 * LANES, &a2, sizeof a2);
        return;
    }
    for (Py_ssize_t to = 0; to < width; to += LANES) {
        f8 best = score[0] + loadv(d->moves + to);
        i8 arg = {0};
        for (Py_ssize_t from = 1; from < N; from++) {
            f8 v = score[from] + loadv(d->moves + from * width + to);
            i8 better = v > best;
            best = (f8)(((i8)v & better) | ((i8)best & ~better));
            arg = ((int32_t)from & better) | (arg & ~better);
        }
        memcpy(d->best + to, &best, sizeof best);
        memcpy(d->arg + to, &arg, sizeof arg);
    }
}

/* The best tags of one sequence of n >= 1 rows with emissions em (n x N) and an optional mask (n x N). As the
 * numpy code did: score = step[start] + em[0]; per row, the best of score[from] + step[from, to] (the lowest
 * ``from`` on ties), + em[i]; the last tag is the argmax of score + end; then back along the best predecessors. */
VECTORS static void decode(const Decoder *d, const float *em, const uint8_t *allowed, Py_ssize_t n, int64_t *tags)
{
    const Py_ssize_t N = d->n_tags;
    float *score = d->score;
    const float *start = d->moves + N * d->width;
    for (Py_ssize_t t = 0; t < N; t++)
        score[t] = start[t] + emission(em, allowed, t);
    for (Py_ssize_t i = 1; i < n; i++) {
        best_moves(d);
        /* (restrict: the stores to back, bytes, would otherwise keep the compiler from vectorising the loops) */
        const float *restrict row = em + i * N, *restrict best = d->best;
        const int32_t *restrict arg = d->arg;
        uint8_t *restrict back = d->back + i * N;
        float *restrict next = score;
        for (Py_ssize_t t = 0; t < N; t++)
            back[t] = (uint8_t)arg[t];
        if (allowed)
            for (Py_ssize_t t = 0; t < N; t++)
                next[t] = best[t] + emission(row, allowed + i * N, t);
        else
            for (Py_ssize_t t = 0; t < N; t++)
                next[t] = best[t] + row[t];
    }
    Py_ssize_t tag = 0;
    float top = score[0] + d->end[0];
    for (Py_ssize_t t = 1; t < N; t++) {
        float v = score[t] + d->end[t];
        if (v > top) {
            top = v;
            tag = t;
        }
    }
    tags[n - 1] = tag;
    for (Py_ssize_t i = n - 1; i > 0; i--) {
        tag = d->back[i * N + tag];
        tags[i - 1] = tag;
    }
}

/* Reads ``starts`` and ``lengths`` (int64, one per sequence) and checks that every sequence lies in 0..rows;
 * sets the longest. */
static int sequences(Buffers *b, PyObject *starts_obj, PyObject *lengths_obj, Py_ssize_t rows, const int64_t **starts,
                     const int64_t **lengths, Py_ssize_t *count, Py_ssize_t *longest)
{
    Py_buffer *s = get(b, starts_obj, "starts", 'i', 8, 1, 0);
    Py_buffer *l = s ? get(b, lengths_obj, "lengths", 'i', 8, 1, 0) : NULL;
    if (!l || !check(dim(s, 0) == dim(l, 0), PyExc_ValueError, "starts and lengths: one each per sequence"))
        return -1;
    *starts = s->buf;
    *lengths = l->buf;
    *count = dim(s, 0);
    *longest = 0;
    for (Py_ssize_t k = 0; k < *count; k++) {
        int64_t a = (*starts)[k], n = (*lengths)[k];
        if (!check(a >= 0 && n >= 0 && a <= rows && n <= rows - a, PyExc_IndexError, "a sequence beyond the rows"))
            return -1;
        if (n > *longest)
            *longest = (Py_ssize_t)n;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------ module */

PyDoc_STRVAR(feature_ids_doc,
"feature_ids(whole, seeds, parts, ends, pad, bits, out)\n--\n\n"
"Feature rows of every real row of ``whole`` (uint64, columns x (rows + 2 * pad)) into ``out`` (int64,\n"
"rows x templates): per template t, h = seeds[t], then h = mix(h ^ whole[column, pad + i + offset]) for each of\n"
"its parts (``parts`` rows ends[t - 1] to ends[t] - 1: column, offset), masked to ``bits`` bits.");

static PyObject *py_feature_ids(PyObject *self, PyObject *args)
{
    PyObject *whole, *seeds, *parts, *ends, *out_obj;
    Py_ssize_t pad;
    int bits;
    if (!PyArg_ParseTuple(args, "OOOOniO", &whole, &seeds, &parts, &ends, &pad, &bits, &out_obj))
        return NULL;
    Buffers b = {.n = 0};
    Features f = {.memory = NULL};
    PyObject *result = NULL;
    if (features(&f, &b, whole, seeds, parts, ends, pad, bits) < 0)
        goto done;
    Py_buffer *out = get(&b, out_obj, "out", 'i', 8, 2, 1);
    if (!out || !check(dim(out, 0) == f.rows && dim(out, 1) == f.n_templates, PyExc_ValueError,
                       "out: rows x templates"))
        goto done;
    int64_t *ids = out->buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < f.rows; i++)
        hash_row(&f, i, ids + i * f.n_templates);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    features_free(&f);
    release(&b);
    return result;
}

PyDoc_STRVAR(scores_doc,
"scores(weights, ids, out)\n--\n\n"
"Emission scores into ``out`` (float32, n x tags): per row i, the sum of the ``weights`` rows (float32 or\n"
"float16, table x tags) ids[i, 0], ids[i, 1], ... (``ids``: int64, n x templates, at least one), added in that\n"
"order (float16 rows converted to float32 exactly first).");

static PyObject *py_scores(PyObject *self, PyObject *args)
{
    PyObject *weights, *ids_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OOO", &weights, &ids_obj, &out_obj))
        return NULL;
    Buffers b = {.n = 0};
    Compact w;
    PyObject *result = NULL;
    uint32_t *at = NULL;
    Py_buffer *ids = weight_rows(&w, &b, weights, "weights") == 0 ? get(&b, ids_obj, "ids", 'i', 8, 2, 0) : NULL;
    Py_buffer *out = ids ? get(&b, out_obj, "out", 'f', 4, 2, 1) : NULL;
    if (!out || !check(dim(ids, 1) >= 1, PyExc_ValueError, "ids: at least one template")
        || !check(dim(out, 0) == dim(ids, 0) && dim(out, 1) == w.n_tags, PyExc_ValueError, "out: n x tags"))
        goto done;
    Py_ssize_t n = dim(ids, 0), n_templates = dim(ids, 1);
    at = PyMem_Malloc(sizeof(uint32_t) * n_templates);
    if (!at) {
        PyErr_NoMemory();
        goto done;
    }
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n && !bad; i++) {
        const int64_t *row = (const int64_t *)ids->buf + i * n_templates;
        for (Py_ssize_t k = 0; k < n_templates && !bad; k++) {
            bad = (uint64_t)row[k] >= (uint64_t)w.n_rows;
            at[k] = (uint32_t)row[k];
        }
        if (!bad)
            sum_places(&w, at, n_templates, (float *)out->buf + i * w.n_tags);
    }
    Py_END_ALLOW_THREADS
    if (check(!bad, PyExc_IndexError, "ids: a row beyond the weight table"))
        result = Py_NewRef(Py_None);
done:
    PyMem_Free(at);
    release(&b);
    return result;
}

PyDoc_STRVAR(viterbi_doc,
"viterbi(emissions, step, end, starts, lengths, allowed, tags)\n--\n\n"
"Best tags of each sequence (rows starts[s] to starts[s] + lengths[s] - 1 of ``emissions``: float32, rows x N)\n"
"into ``tags`` (int64, rows; other rows are left alone). ``step``: float32 (N + 1) x N move scores [from, to], last\n"
"row from the start; ``end``: float32 N; ``allowed``: None or a bool rows x N mask (a tag it rules out scores\n"
"-1e9 more).");

static PyObject *py_viterbi(PyObject *self, PyObject *args)
{
    PyObject *em_obj, *step, *end, *starts_obj, *lengths_obj, *allowed_obj, *tags_obj;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &em_obj, &step, &end, &starts_obj, &lengths_obj, &allowed_obj, &tags_obj))
        return NULL;
    Buffers b = {.n = 0};
    Decoder d = {.memory = NULL};
    PyObject *result = NULL;
    const int64_t *starts, *lengths;
    Py_ssize_t count, longest;
    Py_buffer *em = get(&b, em_obj, "emissions", 'f', 4, 2, 0);
    Py_buffer *tags = em ? get(&b, tags_obj, "tags", 'i', 8, 1, 1) : NULL;
    if (!tags || !check(dim(tags, 0) == dim(em, 0), PyExc_ValueError, "tags: one per row")
        || sequences(&b, starts_obj, lengths_obj, dim(em, 0), &starts, &lengths, &count, &longest) < 0
        || decoder(&d, &b, step, end, dim(em, 1), longest) < 0)
        goto done;
    const uint8_t *allowed = NULL;
    if (allowed_obj != Py_None) {
        Py_buffer *mask = get(&b, allowed_obj, "allowed", '?', 1, 2, 0);
        if (!mask || !check(dim(mask, 0) == dim(em, 0) && dim(mask, 1) == d.n_tags, PyExc_ValueError,
                            "allowed: rows x tags"))
            goto done;
        allowed = mask->buf;
    }
    const float *rows = em->buf;
    int64_t *out = tags->buf;
    Py_ssize_t N = d.n_tags;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t s = 0; s < count; s++)
        if (lengths[s] > 0)
            decode(&d, rows + starts[s] * N, allowed ? allowed + starts[s] * N : NULL, lengths[s], out + starts[s]);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    decoder_free(&d);
    release(&b);
    return result;
}

PyDoc_STRVAR(predict_doc,
"predict(whole, seeds, parts, ends, pad, bits, index, rows, step, end, starts, lengths, tags)\n--\n\n"
"feature_ids, scores and viterbi in one pass over each sequence: the best tags of the sequences' rows of\n"
"``whole`` into ``tags`` (int64, rows; other rows are left alone). The weights are a compact table: feature row h\n"
"is row index[h] of ``rows`` (``index``: uint32, 2**bits; ``rows``: float32 or float16, kept x tags, row 0 the\n"
"zero row; float16 rows are converted to float32 exactly before the same float32 sums).");

static PyObject *py_predict(PyObject *self, PyObject *args)
{
    PyObject *whole, *seeds, *parts, *ends, *index, *rows, *step, *end, *starts_obj, *lengths_obj, *tags_obj;
    Py_ssize_t pad;
    int bits;
    if (!PyArg_ParseTuple(args, "OOOOniOOOOOOO", &whole, &seeds, &parts, &ends, &pad, &bits, &index, &rows, &step,
                          &end, &starts_obj, &lengths_obj, &tags_obj))
        return NULL;
    Buffers b = {.n = 0};
    Features f = {.memory = NULL};
    Decoder d = {.memory = NULL};
    Compact w;
    PyObject *result = NULL;
    void *scratch = NULL;
    const int64_t *starts, *lengths;
    Py_ssize_t count, longest;
    if (features(&f, &b, whole, seeds, parts, ends, pad, bits) < 0 || compact(&w, &b, index, rows) < 0)
        goto done;
    Py_buffer *tags = get(&b, tags_obj, "tags", 'i', 8, 1, 1);
    if (!tags || !check(dim(tags, 0) == f.rows, PyExc_ValueError, "tags: one per row")
        || !check(f.n_templates >= 1, PyExc_ValueError, "at least one template")
        || sequences(&b, starts_obj, lengths_obj, f.rows, &starts, &lengths, &count, &longest) < 0
        || decoder(&d, &b, step, end, w.n_tags, longest) < 0)
        goto done;
    const Py_ssize_t T = f.n_templates;
    const size_t per_row = (sizeof(uint64_t) + sizeof(uint32_t)) * T + sizeof(float) * w.n_tags;
    scratch = PyMem_Malloc(per_row * longest + sizeof(float));
    if (!scratch) {
        PyErr_NoMemory();
        goto done;
    }
    uint64_t *ids = scratch;
    uint32_t *at = (uint32_t *)(ids + T * longest);
    float *em = (float *)(at + T * longest);
    int64_t *out = tags->buf;
    int bad = 0;
    Py_BEGIN_ALLOW_THREADS
    /* A sequence at a time: all its feature rows, then all their places (the index entries and weight rows each
     * row needs are read and fetched while the loads before them wait on memory), then the sums and decoding. */
    for (Py_ssize_t s = 0; s < count && !bad; s++) {
        Py_ssize_t a = starts[s], n = lengths[s];
        if (n == 0)
            continue;
        hash_rows(&f, a, n, ids);
        bad = places(&w, ids, n, T, at);
        for (Py_ssize_t i = 0; i < n && !bad; i++)
            sum_places(&w, at + i * T, T, em + i * w.n_tags);
        if (!bad)
            decode(&d, em, NULL, n, out + a);
    }
    Py_END_ALLOW_THREADS
    if (check(!bad, PyExc_IndexError, "bits: feature rows beyond the weight table"))
        result = Py_NewRef(Py_None);
done:
    PyMem_Free(scratch);
    decoder_free(&d);
    features_free(&f);
    release(&b);
    return result;
}

/* ------------------------------------------------------------------------------------------------ affix cache */

/* An open-addressing table from a word's id (its LOWER hash; 0 marks an empty slot) to two values (the hashes of
 * its first and last four characters), in three uint64 arrays of one power-of-two size that Python owns: slot
 * ``key & (size - 1)`` and on, linearly. */
typedef struct {
    uint64_t *keys, *first, *last;
    Py_ssize_t mask;
} Affixes;

static int affix_table(Affixes *t, Buffers *b, PyObject *keys_obj, PyObject *first_obj, PyObject *last_obj,
                       int writable)
{
    Py_buffer *keys = get(b, keys_obj, "keys", 'u', 8, 1, writable);
    Py_buffer *first = keys ? get(b, first_obj, "first", 'u', 8, 1, writable) : NULL;
    Py_buffer *last = first ? get(b, last_obj, "last", 'u', 8, 1, writable) : NULL;
    if (!last)
        return -1;
    Py_ssize_t n = dim(keys, 0);
    if (!check(n > 0 && (n & (n - 1)) == 0 && dim(first, 0) == n && dim(last, 0) == n, PyExc_ValueError,
               "keys, first, last: one size, a power of two"))
        return -1;
    t->keys = keys->buf;
    t->first = first->buf;
    t->last = last->buf;
    t->mask = n - 1;
    return 0;
}

PyDoc_STRVAR(affix_lookup_doc,
"affix_lookup(words, keys, first, last, out_first, out_last, missing) -> int\n--\n\n"
"Per item of ``words`` (uint64), the table's two values into ``out_first`` and ``out_last`` (uint64, as many);\n"
"the positions of words the table does not hold (and of 0) go into ``missing`` (int64, as many), their values\n"
"left alone. Returns how many are missing.");

static PyObject *py_affix_lookup(PyObject *self, PyObject *args)
{
    PyObject *words_obj, *keys, *first, *last, *of_obj, *ol_obj, *missing_obj;
    if (!PyArg_ParseTuple(args, "OOOOOOO", &words_obj, &keys, &first, &last, &of_obj, &ol_obj, &missing_obj))
        return NULL;
    Buffers b = {.n = 0};
    Affixes t;
    PyObject *result = NULL;
    if (affix_table(&t, &b, keys, first, last, 0) < 0)
        goto done;
    Py_buffer *words = get(&b, words_obj, "words", 'u', 8, 1, 0);
    Py_buffer *of = words ? get(&b, of_obj, "out_first", 'u', 8, 1, 1) : NULL;
    Py_buffer *ol = of ? get(&b, ol_obj, "out_last", 'u', 8, 1, 1) : NULL;
    Py_buffer *missing = ol ? get(&b, missing_obj, "missing", 'i', 8, 1, 1) : NULL;
    if (!missing)
        goto done;
    Py_ssize_t n = dim(words, 0);
    if (!check(dim(of, 0) == n && dim(ol, 0) == n && dim(missing, 0) == n, PyExc_ValueError,
               "out_first, out_last, missing: one item per word"))
        goto done;
    const uint64_t *w = words->buf;
    uint64_t *outf = of->buf, *outl = ol->buf;
    int64_t *miss = missing->buf;
    Py_ssize_t n_missing = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t key = w[i];
        Py_ssize_t at = (Py_ssize_t)(key & (uint64_t)t.mask);
        while (key != 0 && t.keys[at] != 0 && t.keys[at] != key)
            at = (at + 1) & t.mask;
        if (key != 0 && t.keys[at] == key) {
            outf[i] = t.first[at];
            outl[i] = t.last[at];
        } else
            miss[n_missing++] = i;
    }
    result = PyLong_FromSsize_t(n_missing);
done:
    release(&b);
    return result;
}

PyDoc_STRVAR(affix_insert_doc,
"affix_insert(words, first, last, keys, table_first, table_last) -> int\n--\n\n"
"Puts each of ``words`` (uint64, not 0) with its values ``first[i]``, ``last[i]`` into the table (a word it holds\n"
"already keeps its values). Returns how many were new. The caller keeps the table at most half full.");

static PyObject *py_affix_insert(PyObject *self, PyObject *args)
{
    PyObject *words_obj, *first_obj, *last_obj, *keys, *tfirst, *tlast;
    if (!PyArg_ParseTuple(args, "OOOOOO", &words_obj, &first_obj, &last_obj, &keys, &tfirst, &tlast))
        return NULL;
    Buffers b = {.n = 0};
    Affixes t;
    PyObject *result = NULL;
    if (affix_table(&t, &b, keys, tfirst, tlast, 1) < 0)
        goto done;
    Py_buffer *words = get(&b, words_obj, "words", 'u', 8, 1, 0);
    Py_buffer *first = words ? get(&b, first_obj, "first", 'u', 8, 1, 0) : NULL;
    Py_buffer *last = first ? get(&b, last_obj, "last", 'u', 8, 1, 0) : NULL;
    if (!last)
        goto done;
    Py_ssize_t n = dim(words, 0);
    if (!check(dim(first, 0) == n && dim(last, 0) == n, PyExc_ValueError, "first, last: one item per word"))
        goto done;
    const uint64_t *w = words->buf, *f = first->buf, *l = last->buf;
    Py_ssize_t added = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t key = w[i];
        if (!check(key != 0, PyExc_ValueError, "words: 0 marks an empty slot"))
            goto done;
        Py_ssize_t at = (Py_ssize_t)(key & (uint64_t)t.mask), probes = 0;
        while (t.keys[at] != 0 && t.keys[at] != key) {
            at = (at + 1) & t.mask;
            if (!check(++probes <= t.mask, PyExc_ValueError, "the affix table is full"))
                goto done;
        }
        if (t.keys[at] == 0) {
            t.keys[at] = key;
            t.first[at] = f[i];
            t.last[at] = l[i];
            added++;
        }
    }
    result = PyLong_FromSsize_t(added);
done:
    release(&b);
    return result;
}

static PyMethodDef methods[] = {
    {"feature_ids", py_feature_ids, METH_VARARGS, feature_ids_doc},
    {"scores", py_scores, METH_VARARGS, scores_doc},
    {"viterbi", py_viterbi, METH_VARARGS, viterbi_doc},
    {"predict", py_predict, METH_VARARGS, predict_doc},
    {"affix_lookup", py_affix_lookup, METH_VARARGS, affix_lookup_doc},
    {"affix_insert", py_affix_insert, METH_VARARGS, affix_insert_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "kg.nlp._tagger",
    .m_doc = "The linear tagger's inner loops (feature hashing, emission scores, Viterbi decoding), bit-identical to "
             "the numpy code they replaced, and its table of words' affix hashes.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__tagger(void)
{
#ifdef HALF_BY_CPU
    __builtin_cpu_init();
    cpu_converts_halves = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c");
#endif
    return PyModule_Create(&module);
}
