function raTu37 = blackJack(kaKa19, siTu13, zoRa35)
% The House draws in order while below the opponent; a tie wins, over 21 loses.
tuKa58 = 0;
for zoNe26 = 1:2
    tuKa58 = tuKa58 + kaMi6(kaKa19(zoNe26));
end
zoNe26 = 1;
while tuKa58 < zoRa35 && zoNe26 <= length(siTu13)
    tuKa58 = tuKa58 + kaMi6(siTu13(zoNe26));
    zoNe26 = zoNe26 + 1;
end
raTu37 = tuKa58 >= zoRa35 && tuKa58 <= 21;

function neRa60 = kaMi6(xaPe3)
if xaPe3 == 65
    neRa60 = 11;
elseif xaPe3 == 74 || xaPe3 == 75 || xaPe3 == 81
    neRa60 = 10;
else
    neRa60 = xaPe3;
end
