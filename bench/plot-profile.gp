# gnuplot -e "dir='bench/results'; ng=N; nm=M" plot-profile.gp
# Stacked bars: thousands of guest instructions per getppid and per mixed,
# by bucket, one bar per mechanism (latest-profile-{getppid,mixed}.dat
# from profile_report.py; ng, nm: their column counts).
set terminal svg size 1200,900 font "sans,10"
set output dir.'/latest-profile.svg'
set style data histogram
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.75
set xtics rotate by -30
set grid ytics
set key outside right top
set ylabel 'thousands of guest instructions per op (QEMU -icount)'
set linetype 9 lc rgb '#8c564b'
set linetype 10 lc rgb '#7f7f7f'
set linetype 11 lc rgb '#bcbd22'
set linetype 12 lc rgb '#17becf'
set linetype 13 lc rgb '#393b79'
set linetype 14 lc rgb '#e7969c'
set linetype 15 lc rgb '#637939'
set linetype cycle 15
set multiplot layout 2,1
set title 'Where a getppid() goes, by mechanism (sampled, -icount)'
plot for [i=2:ng] dir.'/latest-profile-getppid.dat' using i:xtic(1) title columnheader(i)
set title 'Where a mixed op (7 syscalls) goes, by mechanism (sampled, -icount)'
plot for [i=2:nm] dir.'/latest-profile-mixed.dat' using i:xtic(1) title columnheader(i)
unset multiplot
