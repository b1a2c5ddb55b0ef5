function [xaRa66, neLo51] = goFish(neNe20, miMi21, siTu13)
% The handout's Go Fish: pairs first, then alternate turns until a hand is empty.
[neNe20, raMi39] = duVo17(neNe20);
[miMi21, voVo40] = duVo17(miMi21);
neLo51 = [raMi39, voVo40];
siLo59 = 1;
while ~isempty(neNe20) && ~isempty(miMi21)
    if siLo59 == 1
        zoZo2 = neNe20;
        loTu36 = miMi21;
    else
        zoZo2 = miMi21;
        loTu36 = neNe20;
    end
    zoPe64 = zoZo2(1);
    neMi25 = find(loTu36 == zoPe64, 1);
    if ~isempty(neMi25)
        zoZo2(1) = [];
        loTu36(neMi25) = [];
        neLo51(siLo59) = neLo51(siLo59) + 1;
    else
        miDu16 = siTu13(1);
        siTu13(1) = [];
        zoZo2 = [zoZo2, miDu16];
        zoZo2 = [zoZo2(2:end), zoZo2(1)];
        loTu65 = find(zoZo2 == miDu16);
        if length(loTu65) == 2
            zoZo2(loTu65) = [];
            neLo51(siLo59) = neLo51(siLo59) + 1;
        end
    end
    if siLo59 == 1
        neNe20 = zoZo2;
        miMi21 = loTu36;
        siLo59 = 2;
    else
        miMi21 = zoZo2;
        neNe20 = loTu36;
        siLo59 = 1;
    end
end
if neLo51(1) > neLo51(2)
    xaRa66 = 'Player 1 won!';
elseif neLo51(2) > neLo51(1)
    xaRa66 = 'Player 2 won!';
else
    xaRa66 = 'It''s a tie!';
end

function [siTu27, zoMi41] = duVo17(kaKa19)
siTu27 = [];
zoMi41 = 0;
for zoNe26 = 1:length(kaKa19)
    neMi25 = find(siTu27 == kaKa19(zoNe26), 1);
    if isempty(neMi25)
        siTu27 = [siTu27, kaKa19(zoNe26)];
    else
        siTu27(neMi25) = [];
        zoMi41 = zoMi41 + 1;
    end
end
