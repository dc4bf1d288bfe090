# gnuplot -e "dat='...'; out='...'; ttl='...'; ylab='...'; ncols=N" plot.gp
# ncols: the columns of dat (op, then one per mechanism of the run).
set terminal svg size 1100,520 font "sans,11"
set datafile missing "NaN"
set output out
set title ttl
set ylabel ylab
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -20
set key outside right top
# Twelve mechanisms: four colours beyond gnuplot's eight.
set linetype 9 lc rgb '#8c564b'
set linetype 10 lc rgb '#7f7f7f'
set linetype 11 lc rgb '#bcbd22'
set linetype 12 lc rgb '#17becf'
set linetype cycle 12
set grid ytics
# Mechanisms differ by two orders of magnitude: a log axis keeps all visible.
set logscale y
# one column per mechanism in the run's list
plot for [i=2:ncols] dat using i:xtic(1) title columnheader(i)
