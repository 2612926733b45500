# perl -I compat -MCheckSeed=N tests/check.pl ...: seed perl's rand() before
# check.pl draws its random problems, so a run's problem set is reproducible
# (same problems in every mode, and a failure can be replayed with --seed N).
package CheckSeed;
sub import { my (undef, $seed) = @_; srand($seed) if defined $seed; }
1;
