# gnuplot -e "dat='...'; out='...'; ttl='...'; ylab='...'" plot.gp
set terminal svg size 900,480 font "sans,11"
set output out
set title ttl
set ylabel ylab
set style data histogram
set style histogram cluster gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics rotate by -20
set key top left
set grid ytics
# one column per mechanism of report.py MECHS
plot for [i=2:9] dat using i:xtic(1) title columnheader(i)
