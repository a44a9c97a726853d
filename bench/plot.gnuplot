# Horizontal bars: µs per decision by case (bench/report.php writes the data file).
#   gnuplot -e "dat='plot.dat'; png='docs/benchmarks.png'; rows=25; title='...'" bench/plot.gnuplot
set terminal pngcairo size 1000, (120 + 22 * rows) font 'sans,10'
set output png
set title title
set xlabel 'µs per decision (median; lower is faster)'
set xrange [0:*]
set yrange [-0.7:rows - 0.3]
set offsets 0, graph 0.07, 0, 0   # room for the value printed after the longest bar
set style fill solid 0.85 border -1
set grid xtics
set key off
set ytics nomirror scale 0
plot dat using ($2/2):1:(0):2:($1-0.38):($1+0.38):3:ytic(4) with boxxyerror lc rgb variable, \
     dat using 2:1:(sprintf(' %.1f', $2)) with labels left font 'sans,9'
