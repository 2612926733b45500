#!/usr/bin/perl -w
# Count problems passed/failed in the combined stdout+stderr log of one
# `perl -w tests/check.pl -k -v BENCH` run, and optionally re-run the
# problems that did not pass, one per bench process, to pin down failures.
#
# Why this is needed: check.pl hands ~43 problems to one bench process
# ("Executing \"BENCH OPTS --verify 'P1' --verify 'P2' ...\""); bench prints
# "P l1err l2err linferr" for each problem it verified (only on success,
# --verbose=1) and exits non-zero at the first failing one, so check.pl's
# "FAILED BENCH: --verify ..." names the whole batch. Here: the first
# problem of a failed batch with no result line is the failing one; the
# ones after it were not run. With --validate-wisdom, every batch runs twice
# (second time with -owisdom-only); a problem passes if it passed both times.
#
# Usage: check-summary.pl LOG [--isolate [--isolate-max N]] [--report FILE]
#   --isolate   re-run each failed / not-run problem (the first N, default
#               40) alone, with the exact command line of each batch it was
#               in (run from the log's dir: wis.dat lives there), to classify
#               it. Output of failures goes to the report.
# Prints one line: "total=N pass=N fail=N notrun=N batchfail=N incomplete=0|1"
# (batchfail: bench processes that died after verifying all their problems,
# and failed "size 0 is undoable" probes;
# incomplete: check.pl was killed/interrupted, or nothing ran at all).
# Uses only core Perl (perl-base), since the GPU machine may have no more.
use strict;

my ($log, $isolate, $report, $isolate_max) = (undef, 0, undef, 40);
while (@ARGV) {
    my $a = shift @ARGV;
    if ($a eq '--isolate') { $isolate = 1; }
    elsif ($a eq '--report') { $report = shift @ARGV; }
    elsif ($a eq '--isolate-max') { $isolate_max = shift @ARGV; }
    else { $log = $a; }
}
die "usage: check-summary.pl LOG [--isolate [--isolate-max N]] [--report FILE]\n" unless defined $log;

open(my $fh, '<', $log) or die "check-summary: cannot read $log: $!\n";
my @batchfail;   # failures not tied to one verified problem
my @runs;        # {cmd, prefix, wonly, probs=>[...], ok=>{p=>1}, failed, out=>[...]}
my $cur;
my $incomplete = 0;
my @stray;       # output outside any run (e.g. gpufftw lines of other processes)
while (my $line = <$fh>) {
    chomp $line;
    if ($line =~ /^Executing "(.*)"$/) {
        my $cmd = $1;
        next if $cmd =~ / --can-do /;            # -1d/-2d "undoable" probes
        my @probs = ($cmd =~ /--verify '([^']*)'/g);
        (my $prefix = $cmd) =~ s/\s*--verify '[^']*'//g;
        my $wonly = ($cmd =~ /-owisdom-only/ ? 1 : 0);
        $cur = { cmd => $cmd, prefix => $prefix, probs => \@probs, ok => {},
                 in => { map { $_ => 1 } @probs }, failed => 0, out => [],
                 wonly => $wonly,
                 # the wisdom-only rerun of a batch whose first run died reads
                 # no wis.dat (bench writes it at exit): its failures are a
                 # consequence, not news, so they count as not run.
                 tainted => ($wonly && @runs && $runs[-1]{failed} ? 1 : 0) };
        push @runs, $cur;
    } elsif ($line =~ /^FAILED (.*)$/) {
        # -0d/-1d/-2d probe that size 0 is refused (--can-do must say #f)
        if ($line =~ /is not undoable$/) { push @batchfail, $line; next; }
        $cur->{failed} = 1 if $cur;
    } elsif ($line =~ /^(hangup|interrupted|killed)$/) {
        # check.pl exits 0 after these: the run did not finish.
        $incomplete = 1; $cur->{failed} = 1 if $cur;
        push @{$cur ? $cur->{out} : \@stray}, $line;
    } elsif ($cur && $line =~ /^(\S+) \S+ \S+ \S+$/ && exists $cur->{in}{$1}) {
        $cur->{ok}{$1} = 1;
    } elsif ($line eq 'Executing again in wisdom-only mode') {
        # informational
    } else {
        push @{$cur ? $cur->{out} : \@stray}, $line;
    }
}
close $fh;

# bench dumps up to 300 lines of numbers after "Found relative error"; a few
# of them say enough, and the first 40 lines say what went wrong.
sub trim {
    my ($ndump, @o) = (0);
    for (@_) {
        next if /^\s*\d+\s+-?[\d.]+\s+-?[\d.]+/ && ++$ndump > 6;
        push @o, $_;
    }
    push @o, "(" . ($ndump - 6) . " more lines of numbers dropped)" if $ndump > 6;
    splice(@o, 40) if @o > 40;
    return join("\n", @o);
}

# Per problem: pass if verified in every run that had it.
my (%status, %why, @order);
for my $r (@runs) {
    my $seen_fail = $r->{tainted};
    if ($r->{failed} && !grep { !$r->{ok}{$_} } @{$r->{probs}}) {
        # every problem verified, yet bench failed: it died afterwards
        # (destroy/cleanup, wisdom export at exit, ...).
        push @batchfail, "batch failed after verifying all its problems: $r->{cmd}\n"
            . join("\n", @{$r->{out}});
    }
    for my $p (@{$r->{probs}}) {
        push @order, $p unless exists $status{$p};
        $status{$p} //= 'pass';
        next if $r->{ok}{$p};
        my $s;
        if ($r->{failed} && !$seen_fail) { $s = 'fail'; $seen_fail = 1; }
        elsif ($r->{failed}) { $s = 'notrun'; }
        else { $s = 'fail'; }   # bench exited 0 without verifying it: odd, count it
        if ($status{$p} ne 'fail') {
            $status{$p} = $s;
            if ($s eq 'fail') {
                my $k = 1 + (grep { $r->{probs}[$_] eq $p } 0 .. $#{$r->{probs}})[0];
                $why{$p} = "in a batch of " . scalar(@{$r->{probs}}) . " problems (#$k, after "
                    . scalar(keys %{$r->{ok}}) . " passed): $r->{prefix}\n"
                    . trim(@{$r->{out}});
            }
        }
    }
}

# Re-run the problems that did not pass, one at a time, with each batch
# command they were part of, in log order (wisdom: write, then read back).
my %alone;
if ($isolate) {
    my $left = $isolate_max;
    # the failures first, then what their batches did not get to
    for my $p ((grep { $status{$_} eq 'fail' } @order), (grep { $status{$_} eq 'notrun' } @order)) {
        next if $status{$p} eq 'pass';
        # a thoroughly broken library would mean hundreds of bench starts
        last if $left-- <= 0;
        my ($ok, $out) = (1, '');
        for my $r (@runs) {
            next unless grep { $_ eq $p } @{$r->{probs}};
            # First run of a --validate-wisdom batch: check.pl starts it from
            # a fresh wisdom file, so do we.
            unlink('wis.dat') if $r->{prefix} =~ /-o wisdom/ && !$r->{wonly};
            my $cmd = "$r->{prefix} --verify '$p'";
            my $o = `$cmd 2>&1`;
            my $rc = $?;
            $out .= "\$ $cmd\n" . trim(split /\n/, $o) . "\nexit status: " . ($rc >> 8) . ($rc & 127 ? " signal " . ($rc & 127) : "") . "\n";
            if ($rc != 0 || $o !~ /^\Q$p\E \S+ \S+ \S+$/m) { $ok = 0; last; }
        }
        if ($status{$p} eq 'notrun') {
            $status{$p} = $ok ? 'pass' : 'fail';
        }
        $alone{$p} = $ok ? 'passes when run alone (fails only inside its batch)' : 'fails when run alone too';
        $why{$p} = ($why{$p} // '') . "\n--- isolated re-run:\n$out" unless $ok && !exists $why{$p};
    }
}

my %n = (pass => 0, fail => 0, notrun => 0);
$n{$status{$_}}++ for @order;
$incomplete = 1 if !@runs;   # nothing ran at all: not a pass

if (defined $report) {
    open(my $rf, '>', $report) or die "check-summary: cannot write $report: $!\n";
    for my $p (grep { $status{$_} eq 'fail' } @order) {
        print $rf "=== fail: $p" . ($alone{$p} ? "  [$alone{$p}]" : "") . "\n";
        print $rf ($why{$p} // ''), "\n";
    }
    print $rf "=== fail: $_\n" for @batchfail;
    my @nr = grep { $status{$_} eq 'notrun' } @order;
    print $rf "=== not run (an earlier problem of their batch failed): " . scalar(@nr)
        . "\n", join(' ', @nr), "\n" if @nr;
    print $rf "=== output outside any bench batch:\n", join("\n", @stray), "\n" if @stray;
    close $rf;
}
printf "total=%d pass=%d fail=%d notrun=%d batchfail=%d incomplete=%d\n",
    scalar(@order), $n{pass}, $n{fail}, $n{notrun}, scalar(@batchfail), $incomplete;
