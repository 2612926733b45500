% The spectra of 512 signals of 4096 samples with Octave's fft, which calls
% FFTW3; gpufftw serves those calls when Octave runs under gpufftw-run:
%
%   gpufftw-run --report -- octave --no-gui --quiet examples/octave_spectrum.m
%
% The script knows nothing of gpufftw. It checks the round trip and the
% strongest line, and ends in an error (exit status 1) if either is wrong.
n = 4096; signals = 512;
t = (0:n-1)' / n;
x = single(sin(2 * pi * 100 * t) + 0.5 * randn(n, signals));
for k = 1:10
  y = fft(x);                % one batched r2c-like plan, columns in one call
end
back = real(ifft(y));
err = norm(back(:) - x(:)) / norm(x(:));
[~, line] = max(mean(abs(y(2:n/2, :)) .^ 2, 2));
printf("%d signals of %d samples, single precision: strongest line at bin %d, round-trip error %.2e\n", ...
       signals, n, line, err);
if !(err < 1e-5 && line == 100)
  error("the spectrum is wrong");
end
