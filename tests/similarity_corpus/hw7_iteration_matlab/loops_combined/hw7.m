% hw7 - all my functions in one file

function duRa62 = kaNe25(zoSi9)
duRa62 = 0;
voDu0 = 0;
neSi30 = 1;
while neSi30 <= length(zoSi9)
duRa62 = duRa62 + zoSi9(neSi30);
voDu0 = voDu0 + (zoSi9(neSi30) == 11);
neSi30 = neSi30 + 1;
end
while duRa62 > 21 && voDu0 >= 1
duRa62 = duRa62 - 10;
voDu0 = voDu0 - 1;
end
end

function [tuRa71, peKa56] = goFish(neSi23, tuRa24, duLo16)
[neSi23, zoDu44] = xaNe20(neSi23);
[tuRa24, miMi45] = xaNe20(tuRa24);
peKa56 = [zoDu44, miMi45];
siNe64 = 1;
miPe15 = false;
while ~isempty(neSi23) && ~isempty(tuRa24)
if siNe64 == 1
miMi2 = neSi23;
siLo41 = tuRa24;
else
miMi2 = tuRa24;
siLo41 = neSi23;
end
loNe69 = miMi2(1);
miKa29 = find(siLo41 == loNe69, 1);
if ~isempty(miKa29)
miMi2(1) = [];
siLo41(miKa29) = [];
peKa56(siNe64) = peKa56(siNe64) + 1;
else
tuNe19 = duLo16(1);
if miPe15
fprintf('drew %d\n', tuNe19);
end
duLo16(1) = [];
miMi2 = [miMi2, tuNe19];
miMi2 = [miMi2(2:end), miMi2(1)];
neVo70 = find(miMi2 == tuNe19);
if length(neVo70) == 2
miMi2(neVo70) = [];
peKa56(siNe64) = peKa56(siNe64) + 1;
end
end
if siNe64 == 1
neSi23 = miMi2;
tuRa24 = siLo41;
siNe64 = 2;
else
tuRa24 = miMi2;
neSi23 = siLo41;
siNe64 = 1;
end
end
if peKa56(1) > peKa56(2)
tuRa71 = 'Player 1 won!';
elseif peKa56(2) > peKa56(1)
tuRa71 = 'Player 2 won!';
else
tuRa71 = 'It''s a tie!';
end
end

function duZo65 = zoKa8(voDu5)
if voDu5 == 65
duZo65 = 11;
elseif voDu5 == 74 || voDu5 == 75 || voDu5 == 81
duZo65 = 10;
else
duZo65 = voDu5;
end
end

function siNe42 = war(neSi23, tuRa24)
tuZo51 = 1;
neNe34 = 1000;
siKa27 = [];
while ~isempty(neSi23) && ~isempty(tuRa24)
loRa6 = neSi23(1);
peDu7 = tuRa24(1);
neSi23(1) = [];
tuRa24(1) = [];
tuZo51 = tuZo51 + 1;
if (loRa6 == 2 && peDu7 == 13) || (loRa6 > peDu7 && ~(loRa6 == 13 && peDu7 == 2))
neSi23 = [neSi23, loRa6, peDu7];
else
tuRa24 = [tuRa24, peDu7, loRa6];
end
end
if isempty(tuRa24)
siNe42 = sprintf('Player 1 defeated player 2 in %d rounds.', tuZo51 - 1);
else
siNe42 = sprintf('Player 2 defeated player 1 in %d rounds.', tuZo51 - 1);
end
end

function raPe4 = xaKa3(duZo65)
raPe4 = 0;
for neSi30 = 1:length(duZo65)
raPe4 = raPe4 + duZo65(neSi30) / length(duZo65);
end
end

function duZo65 = zoKa8(voDu5)
if voDu5 == double('A')
duZo65 = 11;
elseif voDu5 == double('J') || voDu5 == double('K') || voDu5 == double('Q')
duZo65 = 10;
else
duZo65 = voDu5;
end
end

function [duRa67, loTu72] = blackJackHard(miZo50, duLo16, zoLo18)
duLo16 = arrayfun(@zoKa8, duLo16);
zoLo18 = arrayfun(@zoKa8, zoLo18);
zoKa26 = cell(1, 5);
for siNe54 = 1:5
zoKa26{siNe54} = duLo16(1);
duLo16(1) = [];
end
for siNe54 = 1:5
zoKa26{siNe54} = [zoKa26{siNe54}, duLo16(1)];
duLo16(1) = [];
end
raTu1 = true(1, 5);
while any(raTu1)
for siNe54 = 1:5
if ~raTu1(siNe54)
continue;
end
if siNe54 == 5
duZo65 = kaNe25(zoKa26{5});
siVo28 = duZo65 < 17 || (duZo65 == 17 && any(zoKa26{5} == 11));
else
duKa32 = [zoLo18, zoKa26{siNe54}(1)];
for duDu59 = 1:5
duKa32 = [duKa32, zoKa26{duDu59}(2:end)];
end
siVo28 = voZo11(kaNe25(zoKa26{siNe54}), duKa32) >= miZo50(siNe54);
end
if siVo28
zoKa26{siNe54} = [zoKa26{siNe54}, duLo16(1)];
duLo16(1) = [];
raTu1(siNe54) = kaNe25(zoKa26{siNe54}) <= 21;
else
raTu1(siNe54) = false;
end
end
end
duRa67 = zeros(1, 5);
siNe54 = 1;
while siNe54 <= 5
duRa67(siNe54) = kaNe25(zoKa26{siNe54});
siNe54 = siNe54 + 1;
end
while false
loTu72 = 0;
end
loTu72 = [];
for siNe54 = 1:4
if duRa67(siNe54) <= 21 && (duRa67(5) > 21 || duRa67(siNe54) > duRa67(5))
loTu72 = [loTu72, siNe54];
end
end
end

function siNe42 = scrabbleScore(loMi36, raLo61)
peLo38 = 0.0;
neSi30 = 1;
while neSi30 <= length(loMi36)
peLo38 = peLo38 + loMi36(neSi30);
neSi30 = neSi30 + 1;
end
if false
disp(peLo38)
end
zoLo60 = 0;
for duDu59 = raLo61
zoLo60 = zoLo60 + duDu59;
end
if peLo38 > zoLo60
siNe42 = "I am the Scrabble champion!";
elseif peLo38 < zoLo60
siNe42 = 'Beginner''s luck...';
else
siNe42 = 'I challenge you to a rematch!';
end
end

function [zoLo31, duZo46] = xaNe20(loTu22)
zoLo31 = [];
duZo46 = 0;
for neSi30 = 1:length(loTu22)
miKa29 = find(zoLo31 == loTu22(neSi30), 1);
if isempty(miKa29)
zoLo31 = [zoLo31, loTu22(neSi30)];
else
zoLo31(miKa29) = [];
duZo46 = duZo46 + 1;
end
end
end

function xaLo43 = voZo11(kaSi66, duKa32)
miNe13 = [0, 4 * ones(1, 8), 16, 4];   % by value 1..11: none of 1, four of 2..9, 16 tens, 4 aces
for neSi30 = 1:length(duKa32)
miNe13(duKa32(neSi30)) = miNe13(duKa32(neSi30)) - 1;
end
miDu55 = 0;
duRa62 = 0;
for duZo65 = 2:11
duRa62 = duRa62 + miNe13(duZo65);
if (duZo65 == 11 && 1 <= 21 - kaSi66) || (duZo65 ~= 11 && duZo65 <= 21 - kaSi66)
miDu55 = miDu55 + miNe13(duZo65);
end
end
xaLo43 = miDu55 / duRa62;
end

function [zoRa57, neVo70] = wordSearch(kaKa47, loPe74)
[duKa52, siMi12] = size(kaKa47);
zoRa57 = kaKa47;
neVo70 = zeros(size(loPe74, 1), 2);
xaPe58 = [0 1; 0 -1; 1 0; -1 0];
for kaSi68 = 1:size(loPe74, 1)
xaTu73 = lower(strtrim(loPe74(kaSi68, :)));
zoSi21 = false;
for tuPe48 = 1:duKa52
for voDu5 = 1:siMi12
for siNe54 = 1:4
if zoSi21
break;
end
loZo53 = tuPe48 + xaPe58(siNe54, 1) * (0:length(xaTu73) - 1);
miZo10 = voDu5 + xaPe58(siNe54, 2) * (0:length(xaTu73) - 1);
if all(loZo53 >= 1 & loZo53 <= duKa52 & miZo10 >= 1 & miZo10 <= siMi12)
loDu33 = kaKa47(sub2ind([duKa52, siMi12], loZo53, miZo10));
if strcmp(lower(loDu33), xaTu73)
zoRa57(sub2ind([duKa52, siMi12], loZo53, miZo10)) = '#';
neVo70(kaSi68, :) = [tuPe48, voDu5];
zoSi21 = true;
end
end
end
end
end
end
end

function siNe42 = blackJack(loTu22, duLo16, peNe40)
duRa62 = 0;
for neSi30 = 1:2
duRa62 = duRa62 + zoKa8(loTu22(neSi30));
end
for neSi30 = 1:length(duLo16)
if duRa62 >= peNe40
break;
end
duRa62 = duRa62 + zoKa8(duLo16(neSi30));
end
siNe42 = duRa62 >= peNe40 && duRa62 <= 21;
end

function zoRa57 = wordSearchHard(kaKa47, raKa35)
[duKa52, siMi12] = size(kaKa47);
kaLo14 = false(duKa52, siMi12);
peKa37 = 0;
voNe63 = 0;
xaDu49 = raKa35;
while ~isempty(xaDu49)
[xaTu73, xaDu49] = strtok(xaDu49, ',');
xaTu73 = lower(strtrim(xaTu73));
if isempty(xaTu73)
continue;
end
duVo39 = length(xaTu73);
zoSi21 = false;
for tuPe48 = 1:duKa52
for voDu5 = 1:siMi12
for siNe54 = 1:4
if siNe54 <= 2
if duVo39 > siMi12
continue;
end
zoSi17 = 3 - 2 * siNe54;
loZo53 = tuPe48 * ones(1, duVo39);
miZo10 = mod(voDu5 - 1 + zoSi17 * (0:duVo39 - 1), siMi12) + 1;
else
if duVo39 > duKa52
continue;
end
zoSi17 = 7 - 2 * siNe54;
loZo53 = mod(tuPe48 - 1 + zoSi17 * (0:duVo39 - 1), duKa52) + 1;
miZo10 = voDu5 * ones(1, duVo39);
end
miKa29 = sub2ind([duKa52, siMi12], loZo53, miZo10);
if strcmp(lower(kaKa47(miKa29)), xaTu73)
kaLo14(miKa29) = true;
zoSi21 = true;
end
end
end
end
if ~zoSi21
peKa37 = peKa37 + 1;
end
end
zoRa57 = kaKa47;
zoRa57(kaLo14) = '#';
for neSi30 = 1:peKa37
zoRa57 = [repmat('@', 1, size(zoRa57, 2) + 2); ...
repmat('@', size(zoRa57, 1), 1), zoRa57, repmat('@', size(zoRa57, 1), 1); ...
repmat('@', 1, size(zoRa57, 2) + 2)];
end
end
