# Grouped bars: decisions per Redis core-second by concurrent callers, php-fpm
# workers against threads of one process, Lua library and server module; a
# bar's value in thousands above it (a cluster's four bars sit at x ± 0.1, 0.3)
# (bench/threads.php prints the data: callers, fpm Lua, threads Lua, fpm module, threads module).
#   gnuplot -e "dat='threads.dat'; png='docs/threads.png'; title='...'" bench/threads.gnuplot
set terminal pngcairo size 900, 480 font 'sans,10'
set output png
set title title
set ylabel 'decisions per Redis core-second (median; higher is better)'
set xlabel 'concurrent callers'
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
set key top left
set format y '%.0f'
plot dat using 2:xtic(1) title 'php-fpm workers, Lua' lc rgb '#9ecae1', \
     '' using 3 title 'threads, one shared connection, Lua' lc rgb '#3182bd', \
     '' using 4 title 'php-fpm workers, module' lc rgb '#fdae6b', \
     '' using 5 title 'threads, one shared connection, module' lc rgb '#e6550d', \
     '' using ($0 - 0.3):2:(sprintf('%.0fk', $2 / 1000)) with labels offset 0, 0.6 font 'sans,8' notitle, \
     '' using ($0 - 0.1):3:(sprintf('%.0fk', $3 / 1000)) with labels offset 0, 0.6 font 'sans,8' notitle, \
     '' using ($0 + 0.1):4:(sprintf('%.0fk', $4 / 1000)) with labels offset 0, 0.6 font 'sans,8' notitle, \
     '' using ($0 + 0.3):5:(sprintf('%.0fk', $5 / 1000)) with labels offset 0, 0.6 font 'sans,8' notitle
