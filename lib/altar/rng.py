"""The engine's own random numbers: xorshift32, same sequence on every VM.

CPython's and MicroPython's `random` differ (and CircuitPython's has no
shuffle), so a seed would not replay the same game on both; this does.
"""

_M = 0xFFFFFFFF


class Rng:
    def __init__(self, seed=0):
        self.seed(seed)

    def seed(self, seed):
        # Spread small seeds over the state; xorshift must never hold 0.
        self.s = ((seed & _M) * 2654435761 + 0x6D2B79F5) & _M or 1

    def next(self):
        x = self.s
        x ^= (x << 13) & _M
        x ^= x >> 17
        x ^= (x << 5) & _M
        self.s = x
        return x

    def below(self, n):
        """Uniform integer in 0 .. n-1 (rejection sampling, no modulo bias).
        next() written out: simulations draw hundreds of times a game."""
        lim = 0x100000000 - 0x100000000 % n
        x = self.s
        while True:
            x ^= (x << 13) & _M
            x ^= x >> 17
            x ^= (x << 5) & _M
            if x < lim:
                self.s = x
                return x % n

    def shuffle(self, seq):
        """Fisher-Yates in place (CircuitPython's random has no shuffle)."""
        i = len(seq) - 1
        while i > 0:
            j = self.below(i + 1)
            seq[i], seq[j] = seq[j], seq[i]
            i -= 1
