/*
 * fuzz_tokens.h: the structure-aware input of the formula harnesses. The fuzzer's bytes are a
 * small program that writes a text: each byte below 0xF0 emits a token of the harness's list;
 * 0xF0 and above, followed by two bytes n, repeat the last k = (byte & 7) + 1 tokens n + 1 times
 * (64 times that with bit 0x08), so that a few bytes reach long and deeply nested formulas.
 */
#ifndef FUZZ_TOKENS_H
#define FUZZ_TOKENS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FUZZ_TOKENS_RING 8

/* Write the text of data[0..size) into out (at most max bytes); its length. */
static inline size_t
fuzz_write_tokens(const uint8_t *data, size_t size, const char *const *tokens, size_t ntokens,
                  char *out, size_t max)
{
	size_t ring[FUZZ_TOKENS_RING]; /* start offsets of the last tokens, the newest last */
	size_t ntok = 0, len = 0, i = 0;

	while (i < size && len < max)
	{
		uint8_t b = data[i++];

		if (b < 0xF0 || ntok == 0)
		{
			const char *t = tokens[b % ntokens];
			size_t tl = strlen(t);

			if (tl > max - len)
				break;
			ring[ntok++ % FUZZ_TOKENS_RING] = len;
			memcpy(out + len, t, tl);
			len += tl;
		}
		else
		{
			size_t k = (size_t) (b & 0x07) + 1;
			size_t n, from, block, r;

			if (i + 2 > size)
				break;
			n = ((size_t) data[i] << 8 | data[i + 1]) + 1;
			i += 2;
			if (b & 0x08)
				n *= 64;
			if (k > ntok)
				k = ntok;
			if (k > FUZZ_TOKENS_RING)
				k = FUZZ_TOKENS_RING;
			from = ring[(ntok - k) % FUZZ_TOKENS_RING];
			block = len - from;
			for (r = 0; r < n && len + block <= max; r++)
			{
				memcpy(out + len, out + from, block);
				len += block;
			}
			ring[(ntok - k) % FUZZ_TOKENS_RING] = from; /* the whole run is now one token */
			ntok = ntok - k + 1;
		}
	}
	return len;
}

#endif
